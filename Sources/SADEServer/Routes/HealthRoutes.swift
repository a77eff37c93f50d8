import Foundation
import Hummingbird

extension MonitoringServer {
    /// `GET /health`: whether the server and its database answer; which node this is,
    /// whether it evaluates samples and whose (the shards of patients), whether it runs
    /// the singletons, and the leases it holds.
    func addHealthRoutes(to router: Router<MonitoringRequestContext>) {
        router.get("health") { _, _ in
            let leases = system.heldLeases.sorted { $0.key < $1.key }.map { HealthAnswer.Lease(name: $0.key, expiresAt: $0.value) }
            let accounts = try await system.accounts.count()
            return HealthAnswer(
                status: "ok", accounts: accounts, node: system.node, evaluates: system.evaluates, shards: system.evaluatedShards.members,
                singletons: system.runsSingletons, leases: leases)
        }
    }
}

/// What `GET /health` answers.
struct HealthAnswer: ResponseEncodable {
    struct Lease: Encodable {
        let name: String
        let expiresAt: Date
    }
    let status: String
    let accounts: Int
    let node: String
    let evaluates: Bool
    let shards: [Int]
    let singletons: Bool
    let leases: [Lease]
}
