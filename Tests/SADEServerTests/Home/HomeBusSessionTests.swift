import Foundation
import HummingbirdWSClient
import Logging
import SADEHome
import Synchronization
import SADEMonitoring
import SADETestTiming
import Testing
@testable import SADEServer

@Suite("Home event bus in process", .timeLimit(.minutes(3)), .timed)
struct HomeBusSessionTests {
    /// What a client saw: its text messages, and the close code.
    final class Transcript: Sendable {
        let messages = Mutex<[String]>([])
        let closeCode = Mutex<Int?>(nil)
    }

    @Test("a socket opened with a login token is told and closed (1008) when the token expires on the server's clock")
    func tokenExpiry() async throws {
        try await ServerHarness.run(configure: { $0.tokenLifetime = 60 }) { harness in
            _ = try await harness.system.home.createFlat(FlatPlan(name: "F", rooms: [
                RoomPlan(name: "R", type: .other, polygon: [.init(x: 0, y: 0), .init(x: 1, y: 0), .init(x: 1, y: 1)]),
            ]))
            let token = try await harness.login("admin")
            let seen = Transcript()
            let (pongs, pong) = AsyncStream.makeStream(of: Void.self)
            let client = Task {
                try await WebSocketClient.connect(url: "ws://127.0.0.1:\(harness.port)/api/v1/home/websocket", logger: Logger(label: "test")) {
                    inbound, outbound, _ in
                    try await outbound.write(.text(#"{"type": "auth", "access_token": "\#(token)"}"#))
                    try await outbound.write(.text(#"{"id": 1, "type": "get_states"}"#))
                    try await outbound.write(.text(#"{"id": 2, "type": "ping"}"#))
                    for try await message in inbound.messages(maxSize: 1 << 20) {
                        guard case .text(let text) = message else { continue }
                        seen.messages.withLock { $0.append(text) }
                        if text.contains(#""pong""#) { pong.yield() }
                    }
                }
            }
            for await _ in pongs { break }  // authenticated and answering
            harness.clock.advance(by: .seconds(61))
            let close = try await client.value
            let messages = seen.messages.withLock { $0 }
            #expect(messages.first?.contains("auth_required") == true)
            #expect(messages.contains { $0.contains("auth_ok") })
            #expect(messages.last?.contains("the access token expired") == true, "\(messages)")
            #expect(close?.closeCode == .policyViolation)
            // The bus bypasses the router's middleware: it audits its authentication and commands itself (not pings).
            let audited = try await harness.system.audit.entries(AuditQuery(actor: "admin", limit: 10)).map(\.event).filter { $0.target.hasPrefix("WS ") }
            #expect(audited.map(\.target) == ["WS /api/v1/home/websocket get_states", "WS /api/v1/home/websocket auth"], "\(audited)")
            #expect(audited.map(\.status) == [200, 200] && audited.allSatisfy { $0.role == .admin && $0.action == .read })
        }
    }
}
