import Foundation
import Hummingbird

extension MonitoringServer {
    /// `GET /health`: whether the server and its database answer; which node this is,
    /// whether it evaluates the samples, and the leases it holds.
    func addHealthRoutes(to router: Router<MonitoringRequestContext>) {
        router.get("health") { _, _ -> Response in
            struct Health: Encodable {
                struct Lease: Encodable {
                    let name: String
                    let expiresAt: Date
                }
                let status: String
                let accounts: Int
                let node: String
                let evaluates: Bool
                let leases: [Lease]
            }
            let leases = system.heldLeases.sorted { $0.key < $1.key }.map { Health.Lease(name: $0.key, expiresAt: $0.value) }
            return try await JSONBody.response(
                Health(status: "ok", accounts: try system.accounts.count(), node: system.node, evaluates: system.evaluates, leases: leases))
        }
    }
}
