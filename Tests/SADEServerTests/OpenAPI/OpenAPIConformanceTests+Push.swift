import Foundation
import Testing
@testable import SADEServer

extension OpenAPIConformanceTests {
    /// Web Push: the key, a subscription made, refused, listed and removed.
    static func push(_ log: inout AnswerLog, ward: AdminWard) async throws {
        try await log.call(.get, "/api/v1/push/key")
        let subscription = #"""
            {"endpoint": "https://93.184.216.34/push/nurse1", "expirationTime": null,
             "keys": {"p256dh": "\#(AccessMatrixTests.pushKey)", "auth": "BTBZMqHH6r4Tts7J_aSIgg"}, "device": "Ward phone"}
            """#
        let made = try await log.call(.post, "/api/v1/push/subscriptions", token: ward.nurse1, raw: subscription)
        let id = try #require(made.object?["id"] as? String, "\(made.text)")
        try await log.call(.post, "/api/v1/push/subscriptions", token: ward.nurse1, raw: subscription.replacingOccurrences(of: "https://93", with: "http://93"))
        try await log.call(.post, "/api/v1/push/subscriptions", token: ward.nurse1, raw: subscription.replacingOccurrences(of: "93.184.216.34", with: "10.0.0.7"))
        try await log.call(.post, "/api/v1/push/subscriptions", token: ward.device, raw: subscription)
        try await log.call(.get, "/api/v1/push/subscriptions", token: ward.nurse1)
        try await log.call(.get, "/api/v1/push/subscriptions")
        let one = "/api/v1/push/subscriptions/{id}"
        try await log.call(.delete, one, "/api/v1/push/subscriptions/\(id)", token: ward.doctor1)
        try await log.call(.delete, one, "/api/v1/push/subscriptions/\(id)", token: ward.nurse1)
        try await log.call(.delete, one, "/api/v1/push/subscriptions/\(id)", token: ward.nurse1)
        try await log.call(.post, "/api/v1/push/actions", raw: #"{"token": "not.ours"}"#)
        try await log.call(.post, "/api/v1/push/actions", raw: #"{"tok": 1}"#)
        let tokens = try #require(log.harness.system.pushActions)
        let now = log.harness.system.now()
        let unknown = tokens.issue("acknowledge", notice: UUID(), account: "nurse1", now: now)
        try await log.call(.post, "/api/v1/push/actions", raw: #"{"token": "\#(unknown)"}"#)
        try await log.call(.post, "/api/v1/push/actions", raw: #"{"token": "\#(unknown)"}"#)
        let patientsToken = tokens.issue("acknowledge", notice: UUID(), account: "pat1", now: now)
        try await log.call(.post, "/api/v1/push/actions", raw: #"{"token": "\#(patientsToken)"}"#)
        let odd = tokens.issue("dance", notice: UUID(), account: "nurse1", now: now)
        try await log.call(.post, "/api/v1/push/actions", raw: #"{"token": "\#(odd)"}"#)
    }
}
