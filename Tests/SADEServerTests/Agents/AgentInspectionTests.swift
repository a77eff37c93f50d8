import Foundation
import SADEACL
import SADECore
import SADEHealth
import SADETestTiming
import Testing

@testable import SADEServer

/// The agents' API (issue 25): what an admin sees of the platforms, an agent's mind, its
/// events and the messages between agents, live, and a message sent from the inspector.
@Suite("Seeing inside the agents: the admin API", .timeLimit(.minutes(3)), .timed)
struct AgentInspectionTests {
    @Test("only an admin sees the platforms, the agents and a mind; unknown platforms and agents are 404s")
    func rolesAndUnknowns() async throws {
        try await ServerHarness.run { harness in
            let ward = try await AdminWard.seed(in: harness)
            for (role, token) in ward.nonAdmins {
                let refused = try await harness.request(.get, "/api/v1/platforms/monitoring/agents/AlertAgent", token: token)
                #expect(refused.status == .forbidden, "\(role): \(refused.text)")
                let streams = try await harness.request(.get, "/api/v1/platforms/monitoring/messages", token: token)
                #expect(streams.status == .forbidden, "\(role): the live messages, \(streams.text)")
            }
            #expect(try await harness.request(.get, "/api/v1/platforms").status == .unauthorized)

            let platforms = try await harness.request(.get, "/api/v1/platforms", token: ward.admin)
            let listed = try #require(platforms.array as? [[String: Any]], "\(platforms.text)")
            #expect(listed.map { $0["id"] as? String } == ["monitoring", "issues"])
            #expect(listed.first?["name"] as? String == harness.system.platform.name)
            #expect(listed.first?["agents"] as? Int == harness.system.platform.agentCount)

            let unknownPlatform = try await harness.request(.get, "/api/v1/platforms/elsewhere/agents", token: ward.admin)
            #expect(unknownPlatform.status == .notFound && unknownPlatform.errorCode == "not-found")
            let unknownAgent = try await harness.request(.get, "/api/v1/platforms/monitoring/agents/ghost", token: ward.admin)
            #expect(unknownAgent.status == .notFound && unknownAgent.errorMessage?.contains("ghost") == true, "\(unknownAgent.text)")
            let elsewhere = try await harness.request(.get, "/api/v1/platforms/issues/agents/AlertAgent", token: ward.admin)
            #expect(elsewhere.status == .notFound, "the alert agent is not on the issue track's platform")
            let unknownStream = try await harness.request(.get, "/api/v1/platforms/monitoring/agents/ghost/events", token: ward.admin)
            #expect(unknownStream.status == .notFound)
            let nobody = try await harness.request(.get, "/api/v1/platforms/monitoring/messages?agents=,", token: ward.admin)
            #expect(nobody.status == .badRequest, "a stream of nobody's messages would stay silent: \(nobody.text)")
            let ticket = try #require(try await harness.request(.post, "/api/v1/events/tickets", token: ward.admin).object?["ticket"] as? String)
            let notAStream = try await harness.request(.get, "/api/v1/platforms/monitoring/agents//events?ticket=\(ticket)")
            #expect(notAStream.status == .unauthorized, "a ticket opens live streams only, not the mind of an agent named events")
        }
    }

    @Test("the agents are listed with state and counters, and the alert agent's mind shows its beliefs, goal, plan and strategies")
    func agentsAndMind() async throws {
        try await ServerHarness.run { harness in
            let ward = try await AdminWard.seed(in: harness)
            try await deteriorate(harness, ward: ward)
            let listed = try await harness.request(.get, "/api/v1/platforms/monitoring/agents", token: ward.admin)
            let agents = try #require(listed.array as? [[String: Any]], "\(listed.text)")
            let names = agents.compactMap { $0["name"] as? String }
            #expect(names == names.sorted())
            #expect(Set(["AlertAgent", "AnomaliesAgent", "CollectorAgent", "CareWorker-nurse1"]).isSubset(of: names), "\(names)")
            let alert = try #require(agents.first { $0["name"] as? String == "AlertAgent" })
            #expect(alert["state"] as? String == "active" && alert["goals"] as? Int == 1)
            #expect((alert["messagesReceived"] as? Int ?? 0) >= 1, "told of the anomaly: \(alert)")
            #expect((alert["messagesSent"] as? Int ?? 0) >= 1, "its call for proposals: \(alert)")

            let answer = try await harness.request(.get, "/api/v1/platforms/monitoring/agents/AlertAgent", token: ward.admin)
            let mind = try #require(answer.object, "\(answer.text)")
            #expect(mind["identifier"] as? String == "AlertAgent@\(harness.system.platform.name)")
            let beliefs = mind["beliefs"] as? [[String: Any]] ?? []
            #expect(beliefs.contains { $0["name"] as? String == "escalationsDue" && $0["type"] as? String == "Bool" }, "\(beliefs)")
            let goal = try #require((mind["goals"] as? [[String: Any]])?.first)
            #expect(goal["name"] as? String == "AlertGoal")
            #expect((goal["kind"] as? String)?.hasPrefix("maintain") == true)
            #expect((goal["plans"] as? [[String: Any]])?.first?["name"] as? String == "AlertPlan")
            #expect((mind["behaviours"] as? [String])?.contains("notice escalations") == true)
            #expect((mind["strategies"] as? [String: String])?["deliberation"] == "DefaultDeliberationStrategy")

            let worker = try await harness.request(.get, "/api/v1/platforms/monitoring/agents/CareWorker-nurse1", token: ward.admin)
            let services = worker.object?["services"] as? [[String: Any]] ?? []
            #expect(services.contains { $0["name"] as? String == "patient-care:covid-ward" }, "\(worker.text)")
        }
    }

    @Test("an agent's events come live, over a browser's ticket too: the goal's status changes and the reasoning cycle's decisions")
    func agentEventsLive() async throws {
        try await ServerHarness.run { harness in
            let ward = try await AdminWard.seed(in: harness)
            let ticket = try #require(try await harness.request(.post, "/api/v1/events/tickets", token: ward.admin).object?["ticket"] as? String)
            let stream = try await EventStream.open(harness, path: "/api/v1/platforms/monitoring/agents/AlertAgent/events", ticket: ticket)
            defer { stream.close() }
            try await deteriorate(harness, ward: ward)
            // Until the maintain goal holds again, once the anomaly is attended to.
            let told = try await stream.events(through: { event in
                event.name == "goal" && event.data["goal"] as? String == "AlertGoal" && event.data["status"] as? String == "achieved"
            })
            let message = try #require(told.first { $0.name == "message" }, "the anomaly it handled: \(told.map(\.name))")
            let handled = message.data["message"] as? [String: Any]
            #expect(handled?["performative"] as? String == "inform")
            #expect((handled?["sender"] as? String)?.hasPrefix("AnomaliesAgent@") == true, "\(message.data)")
            #expect((handled?["fipa"] as? String)?.hasPrefix("(inform ") == true)
            let flags = told.map { event in
                (executing: event.name == "goal" && event.data["status"] as? String == "executing",
                 chosen: event.name == "reasoned" && event.data["chosen"] as? [String] == ["AlertGoal"])
            }
            let executing = flags.firstIndex { $0.executing }
            let cycle = flags.firstIndex { $0.chosen }
            #expect(executing != nil && cycle != nil && executing! < cycle!, "deliberation's choice, then its record: \(String(describing: executing)) \(String(describing: cycle)) \(told.map(\.name))")
            let decided = try #require(cycle.map { told[$0].data })
            #expect((decided["selected"] as? [String: [String]])?["AlertGoal"] == ["AlertPlan"], "\(told.map { "\($0.name) \(String(decoding: $0.json, as: UTF8.self))" })")
            #expect(decided["strategies"] as? [String: String] != nil && decided["at"] as? String != nil)
            #expect(told.contains { $0.name == "plan" && $0.data["plan"] as? String == "AlertPlan" })

            let nurse = try #require(try await harness.request(.post, "/api/v1/events/tickets", token: ward.nurse1).object?["ticket"] as? String)
            await #expect(throws: EventStreamError.status(403), "a nurse's ticket opens no agent's stream") {
                try await EventStream.open(harness, path: "/api/v1/platforms/monitoring/agents/AlertAgent/events", ticket: nurse)
            }
        }
    }

    @Test("the sniffer shows the chosen agent's messages live: the anomaly in, the Contract Net with the care workers; no others")
    func sniffedMessagesLive() async throws {
        try await ServerHarness.run { harness in
            let ward = try await AdminWard.seed(in: harness)
            let stream = try await EventStream.open(harness, path: "/api/v1/platforms/monitoring/messages?agents=AlertAgent", token: ward.admin)
            defer { stream.close() }
            try await deteriorate(harness, ward: ward)
            let told = try await stream.events(through: { $0.data["performative"] as? String == "accept-proposal" })
            #expect(told.allSatisfy { $0.name == "message" })
            let seen = told.map(\.data)
            for message in seen {
                let parties = [message["sender"] as? String ?? ""] + (message["receivers"] as? [String] ?? [])
                #expect(parties.contains { $0.hasPrefix("AlertAgent@") }, "only the alert agent's messages: \(message)")
            }
            #expect(seen.contains { $0["performative"] as? String == "inform" && ($0["sender"] as? String)?.hasPrefix("AnomaliesAgent@") == true })
            let cfp = try #require(seen.first { $0["performative"] as? String == "cfp" }, "\(seen)")
            #expect((cfp["receivers"] as? [String])?.contains { $0.hasPrefix("CareWorker-") } == true)
            #expect(cfp["protocol"] as? String == "fipa-contract-net")
            let conversation = try #require(cfp["conversationId"] as? String)
            let answers = seen.filter { $0["conversationId"] as? String == conversation }.compactMap { $0["performative"] as? String }
            #expect(answers.contains("propose") && answers.last == "accept-proposal", "\(answers)")
            #expect((cfp["fipa"] as? String)?.contains(":conversation-id \(conversation)") == true)
        }
    }

    @Test("""
        a message from the inspector gets its reply; an agree is followed by the result; an unknown receiver is the AMS's \
        failure; a silent one or a bare agree times out; the audit trail keeps what was sent; bad input and the pipeline's \
        ontologies are 400s; a platform whose agent holds the inspector's name is a 409 until it goes
        """)
    func sendAMessage() async throws {
        try await ServerHarness.run { harness in
            let ward = try await AdminWard.seed(in: harness)
            let platform = harness.system.platform
            let echo = Agent("echo", on: platform) {
                MessageHandler.on(.request) { agent, message in agent.send(message.makeReply(.inform, content: message.content)) }
            }
            let promiser = Agent("promiser", on: platform) {
                MessageHandler.on(.request) { agent, message in agent.send(message.makeReply(.agree)) }
            }
            let clerk = Agent("clerk", on: platform) {
                MessageHandler.on(.request) { agent, message in
                    agent.send(message.makeReply(.agree))
                    agent.send(message.makeReply(.inform, content: "(done)"))
                }
            }
            let mute = Agent("mute", on: platform) {}
            for agent in [echo, promiser, clerk, mute] { try await agent.start() }
            func send(_ body: String) async throws -> HarnessResponse {
                try await harness.request(.post, "/api/v1/platforms/monitoring/messages", token: ward.admin, raw: body)
            }

            let echoed = try await send(#"{"receiver": "echo", "performative": "request", "content": "(ping 42)"}"#)
            let exchange = try #require(echoed.object, "\(echoed.text)")
            let sent = exchange["sent"] as? [String: Any]
            #expect(sent?["sender"] as? String == "\(InspectorDesk.agentName)@\(platform.name)")
            #expect(sent?["receivers"] as? [String] == ["echo@\(platform.name)"])
            let replies = exchange["replies"] as? [[String: Any]] ?? []
            #expect(replies.map { $0["performative"] as? String } == ["inform"] && replies.first?["content"] as? String == "(ping 42)")
            #expect(replies.first?["conversationId"] as? String == sent?["conversationId"] as? String)
            #expect(exchange["timedOut"] as? Bool == false)

            let agreed = try await send(#"{"receiver": "clerk@\#(platform.name)", "performative": "request", "content": "(work)"}"#)
            #expect((agreed.object?["replies"] as? [[String: Any]])?.map { $0["performative"] as? String } == ["agree", "inform"])

            let promised = try await send(#"{"receiver": "promiser", "performative": "request", "timeout": 0.2}"#)
            #expect((promised.object?["replies"] as? [[String: Any]])?.map { $0["performative"] as? String } == ["agree"])
            #expect(promised.object?["timedOut"] as? Bool == true, "an agree is not the final answer: \(promised.text)")

            let unknown = try await send(#"{"receiver": "nobody", "performative": "request", "content": "(ping)"}"#)
            let failure = (unknown.object?["replies"] as? [[String: Any]])?.first
            #expect(failure?["performative"] as? String == "failure" && (failure?["sender"] as? String)?.hasPrefix("ams@") == true)

            let silent = try await send(#"{"receiver": "mute", "performative": "query-ref", "content": "(x)", "timeout": 0.2}"#)
            #expect(silent.object?["timedOut"] as? Bool == true && (silent.object?["replies"] as? [Any])?.isEmpty == true, "\(silent.text)")

            let trail = try await AuditRouteTests.entries(harness).filter { $0.target == "POST /api/v1/platforms/monitoring/messages" }
            #expect(
                trail.contains { $0.detail?.hasPrefix("(request :sender (agent-identifier :name inspector:dashboard@") == true && $0.detail?.contains("(ping 42)") == true },
                "\(trail.map(\.detail))")

            for body in [
                #"{"receiver": "echo", "performative": "shout"}"#, #"{"receiver": "", "performative": "request"}"#,
                #"{"receiver": "echo", "performative": "request", "timeout": 60}"#, #"{"performative": "request"}"#, "[",
                #"{"receiver": "ec\u0000ho", "performative": "request"}"#, #"{"receiver": "inspector:dashboard", "performative": "request"}"#,
                #"{"receiver": "AlertAgent", "performative": "inform", "ontology": "sade-anomaly", "content": "{}"}"#,
            ] {
                let refused = try await send(body)
                #expect(refused.status == .badRequest, "\(body): \(refused.text)")
            }
            #expect(try await harness.request(.get, "/api/v1/platforms/monitoring/agents/inspector:dashboard", token: ward.admin).status == .ok)

            let company = try #require(harness.server.issueTrack?.platform)
            let impostor = Agent("inspector:dashboard", on: company) {}
            try await impostor.start()
            let toDF = #"{"receiver": "df", "performative": "query-ref", "timeout": 0.1}"#
            let taken = try await harness.request(.post, "/api/v1/platforms/issues/messages", token: ward.admin, raw: toDF)
            #expect(taken.status == .conflict && taken.errorMessage?.contains("inspector") == true, "\(taken.text)")
            await impostor.stop()
            let again = try await harness.request(.post, "/api/v1/platforms/issues/messages", token: ward.admin, raw: toDF)
            #expect(again.status == .ok, "the inspector starts once the name is free: \(again.text)")
            for agent in [echo, promiser, clerk, mute] { await agent.stop() }
        }
    }

    /// Patient-01's vital signs turn bad with nurse1 on duty in the ward: an anomaly for
    /// the alert agent, an alert given to her by Contract Net.
    private func deteriorate(_ harness: ServerHarness, ward: AdminWard) async throws {
        try await harness.system.health.save(HealthCareWorker(id: "nurse1", name: "Nina", role: .nurse, sectors: ["covid-ward"], onDuty: true))
        try await harness.system.staffChanged()
        let posted = try await harness.request(
            .post, "/api/v1/patients/patient-01/observations", token: ward.device, json: AlertFlowTests.deteriorated(at: harness.system.now()))
        #expect(posted.status == .created, "\(posted.text)")
        await harness.system.pipeline.settle()
    }
}
