import Foundation
import Testing
@testable import SADEServer

extension OpenAPIConformanceTests {
    /// Seeing inside the agents: platforms, agents, a mind, a message from the inspector,
    /// and what the live streams tell meanwhile.
    static func agents(_ log: inout AnswerLog, ward: AdminWard) async throws {
        try await log.call(.get, "/api/v1/platforms", token: ward.admin)
        try await log.call(.get, "/api/v1/platforms", token: ward.nurse1)
        let agents = "/api/v1/platforms/{platform}/agents"
        try await log.call(.get, agents, "/api/v1/platforms/monitoring/agents", token: ward.admin)
        try await log.call(.get, agents, "/api/v1/platforms/issues/agents", token: ward.admin)
        try await log.call(.get, agents, "/api/v1/platforms/elsewhere/agents", token: ward.admin)
        let mind = "/api/v1/platforms/{platform}/agents/{agent}"
        try await log.call(.get, mind, "/api/v1/platforms/monitoring/agents/AlertAgent", token: ward.admin)
        try await log.call(.get, mind, "/api/v1/platforms/monitoring/agents/ghost", token: ward.admin)
        try await log.call(.get, mind, "/api/v1/platforms/monitoring/agents/AlertAgent", token: ward.doctor1)

        let events = try await EventStream.open(log.harness, path: "/api/v1/platforms/monitoring/agents/AlertAgent/events", token: ward.admin)
        let sniffed = try await EventStream.open(log.harness, path: "/api/v1/platforms/monitoring/messages?agents=AlertAgent", token: ward.admin)
        let messages = "/api/v1/platforms/{platform}/messages"
        let said = #"{"receiver": "AlertAgent", "performative": "inform", "content": "(hello)", "timeout": 0.1}"#
        try await log.call(.post, messages, "/api/v1/platforms/monitoring/messages", token: ward.admin, raw: said)
        try await log.call(.post, messages, "/api/v1/platforms/monitoring/messages", token: ward.admin, raw: #"{"receiver": "x", "performative": "shout"}"#)
        try await log.call(.post, messages, "/api/v1/platforms/monitoring/messages", token: ward.nurse1, raw: said)
        let told = try await events.events(through: { $0.name == "reasoned" })
        for name in ["message", "reasoned"] {
            let event = try #require(told.first { $0.name == name }, "a \(name) event: \(told.map(\.name))")
            try log.record(event.json, as: "AgentEvent")
        }
        events.close()
        let message = try #require(try await sniffed.events(through: { $0.name == "message" }).last, "a sniffed message")
        try log.record(message.json, as: "SniffedMessage")
        sniffed.close()
    }
}
