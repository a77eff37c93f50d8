import Foundation
import SADEACL
import SADECore
import SADETestTiming
import Testing

@Suite("FIPA Request and Query", .timeLimit(.minutes(3)), .timed)
struct RequestProtocolTests {
    @Test("agree then inform: the request returns the result and the agreement")
    func agreeThenInform() async throws {
        let platform = Environment(name: "test")
        let gate = Gate()
        let pharmacy = try await startedAgent("Pharmacy", on: platform) {
            RequestResponder { _, _ in .agree } perform: { _, request in
                await gate.wait()
                return "(delivered \(request.content ?? ""))"
            }
        }
        let nurse = try await startedAgent("Nurse", on: platform)
        var probe = await EventProbe(nurse)
        let call = Task { try await nurse.request(to: "Pharmacy", content: "insulin", timeout: .seconds(120)) }

        let agree = try #require(await probe.nextMessage())
        #expect(agree.performative == .agree)
        gate.open()
        let outcome = try await call.value
        #expect(outcome.agreement == agree)
        #expect(outcome.content == "(delivered insulin)")
        #expect(outcome.result.sender == pharmacy.identifier)
        #expect(outcome.result.interactionProtocol == "fipa-request")
        #expect(outcome.result.conversationID == agree.conversationID)
    }

    @Test("a responder may skip the agreement and inform at once")
    func informWithoutAgree() async throws {
        let platform = Environment(name: "test")
        _ = try await startedAgent("Echo", on: platform) {
            RequestResponder { _, _ in .proceed } perform: { _, request in request.content }
        }
        let client = try await startedAgent("Client", on: platform)
        let outcome = try await client.request(ACLMessage(.request, receivers: ["Echo"], content: "ping"), timeout: .seconds(120))
        #expect(outcome.agreement == nil)
        #expect(outcome.content == "ping")
    }

    @Test("a refusal, a failure and a not-understood each end the request with their own error")
    func refuseFailureNotUnderstood() async throws {
        struct OutOfStock: Error, CustomStringConvertible { var description: String { "(out-of-stock)" } }
        let platform = Environment(name: "test")
        _ = try await startedAgent("Pharmacy", on: platform) {
            RequestResponder { _, request in
                switch request.content {
                case "morphine": .refuse("(needs-prescription)")
                case "gibberish": .notUnderstood("(unknown-drug)")
                default: .agree
                }
            } perform: { _, _ in throw OutOfStock() }
        }
        let nurse = try await startedAgent("Nurse", on: platform)

        let refused = await interactionError { try await nurse.request(to: "Pharmacy", content: "morphine", timeout: .seconds(120)) }
        guard case .refused(let refusal) = refused else { Issue.record("expected a refusal, got \(String(describing: refused))"); return }
        #expect(refusal.content == "(needs-prescription)")

        let failed = await interactionError { try await nurse.request(to: "Pharmacy", content: "insulin", timeout: .seconds(120)) }
        guard case .failed(let failure) = failed else { Issue.record("expected a failure, got \(String(describing: failed))"); return }
        #expect(failure.content == "(out-of-stock)")
        #expect(failed?.deliveryFailureCode == nil)

        let puzzled = await interactionError { try await nurse.request(to: "Pharmacy", content: "gibberish", timeout: .seconds(120)) }
        guard case .notUnderstood(let answer) = puzzled else { Issue.record("expected not-understood, got \(String(describing: puzzled))"); return }
        #expect(answer.content == "(unknown-drug)")
    }

    @Test("a request to an unknown agent fails with the platform's delivery failure")
    func unknownReceiverFails() async throws {
        let platform = Environment(name: "test", clock: ManualClock())
        let nurse = try await startedAgent("Nurse", on: platform)
        let error = await interactionError { try await nurse.request(to: "Ghost", content: "(help)", timeout: .seconds(5)) }
        #expect(error?.deliveryFailureCode == "unknown-agent")
        #expect(error?.reply?.sender?.localName == "ams")
    }

    @Test("no answer within the timeout on the platform clock ends the request with timedOut")
    func timeoutOnManualClock() async throws {
        let clock = ManualClock()
        let platform = Environment(name: "test", clock: clock)
        let requests = Recorder<ACLMessage>()
        _ = try await startedAgent("Silent", on: platform) {
            MessageHandler.on(.request) { _, message in requests.append(message) }
        }
        let nurse = try await startedAgent("Nurse", on: platform)
        let before = Date()
        let call = Task { await interactionError { try await nurse.request(to: "Silent", content: "(x)", timeout: .seconds(5)) } }

        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(4))
        #expect(clock.sleeperCount == 1)  // still waiting at 4 s
        clock.advance(by: .seconds(1))
        let error = await call.value
        #expect(error == .timedOut(after: .seconds(5)))

        let sent = try #require(await requests.all(atLeast: 1).first)
        let replyBy = try #require(sent.replyBy)
        #expect(replyBy.timeIntervalSince(before) > 4 && replyBy.timeIntervalSince(before) < 60)
        #expect(sent.replyWith?.isEmpty == false)
        #expect(sent.conversationID?.hasPrefix("Nurse-") == true)
    }

    @Test("stopping the initiator ends its waiting request with agentStopped")
    func stoppedInitiatorEndsConversation() async throws {
        let platform = Environment(name: "test", clock: ManualClock())
        let silent = try await startedAgent("Silent", on: platform)
        var silentProbe = await EventProbe(silent)
        let nurse = try await startedAgent("Nurse", on: platform)
        let call = Task { await interactionError { try await nurse.request(to: "Silent", content: "(x)", timeout: .seconds(5)) } }

        _ = await silentProbe.nextMessage { $0.performative == .request }
        await nurse.stop()
        #expect(await call.value == .agentStopped)
    }

    @Test("an agent that is not started cannot initiate a request")
    func notStartedAgentCannotRequest() async throws {
        let platform = Environment(name: "test")
        let nurse = Agent(name: "Nurse", environment: platform)
        let error = await interactionError { try await nurse.request(to: "Anyone", content: "(x)", timeout: .seconds(1)) }
        #expect(error == .agentNotActive(.initiated))
        let twoReceivers = ACLMessage(.request, receivers: ["A", "B"], content: "(x)")
        try await nurse.start()
        guard case .invalidMessage = await interactionError({ try await nurse.request(twoReceivers, timeout: .seconds(1)) })
        else { Issue.record("a request to two receivers should be refused"); return }
    }

    @Test("a stranger's message in a running request gets not-understood and does not disturb it")
    func strangerGetsNotUnderstood() async throws {
        let platform = Environment(name: "test")
        let gate = Gate()
        let received = Recorder<ACLMessage>()
        _ = try await startedAgent("Pharmacy", on: platform) {
            RequestResponder { _, _ in .agree } perform: { _, request in
                received.append(request)
                await gate.wait()
                return "(done)"
            }
        }
        let handled = Recorder<ACLMessage>()
        let nurse = try await startedAgent("Nurse", on: platform) {
            MessageHandler(.any) { _, message in handled.append(message) }
        }
        var nurseProbe = await EventProbe(nurse)
        let intruder = try await startedAgent("Intruder", on: platform)
        var intruderProbe = await EventProbe(intruder)
        let call = Task { try await nurse.request(to: "Pharmacy", content: "(x)", timeout: .seconds(120)) }  // never reached: no timing in this test

        let agree = try #require(await nurseProbe.nextMessage { $0.performative == .agree })
        intruder.send(ACLMessage(.inform, receivers: [nurse.identifier], content: "(fake)", conversationID: agree.conversationID))
        let answer = try #require(await intruderProbe.nextMessage())
        #expect(answer.performative == .notUnderstood)
        #expect(answer.conversationID == agree.conversationID)

        gate.open()
        #expect(try await call.value.content == "(done)")
        // Replies in the conversation went to the request only, never to the handlers.
        #expect(handled.all.isEmpty)
        #expect(received.count == 1)
    }

    @Test("a request responder answers a fipa-request message that is not a request with not-understood")
    func responderRejectsStrayPerformative() async throws {
        let platform = Environment(name: "test")
        _ = try await startedAgent("Pharmacy", on: platform) {
            RequestResponder { _, _ in "(done)" }
        }
        let other = try await startedAgent("Other", on: platform)
        var probe = await EventProbe(other)
        other.send(ACLMessage(.inform, receivers: ["Pharmacy"], content: "(x)", interactionProtocol: "fipa-request"))
        #expect(await probe.nextMessage()?.performative == .notUnderstood)
    }

    @Test("an agent may request itself: its own request reaches its responder, not its conversation")
    func selfRequest() async throws {
        let platform = Environment(name: "test")
        let loner = try await startedAgent("Loner", on: platform) {
            RequestResponder { _, request in "(self \(request.content ?? ""))" }
        }
        let outcome = try await loner.request(to: "Loner", content: "x", timeout: .seconds(120))
        #expect(outcome.content == "(self x)")
    }

    @Test("a reply that copies the request's reply-with (SPADE's make_reply copies every parameter) still answers it")
    func replyCopyingReplyWith() async throws {
        let platform = Environment(name: "test")
        _ = try await startedAgent("Copier", on: platform) {
            MessageHandler.on(.request) { agent, request in
                var answer = ACLMessage(
                    .inform, receivers: [request.sender!], content: "(copied)", conversationID: request.conversationID,
                    replyWith: request.replyWith)
                answer.interactionProtocol = request.interactionProtocol
                agent.send(answer)
            }
        }
        let nurse = try await startedAgent("Nurse", on: platform)
        let outcome = try await nurse.request(to: "Copier", content: "x", timeout: .seconds(60))
        #expect(outcome.content == "(copied)")
    }
}

@Suite("Conversations", .timeLimit(.minutes(3)), .timed)
struct ConversationTests {
    @Test("cancelling the waiting task ends the request with cancelled and leaves no timer on the clock")
    func cancelledRequest() async throws {
        let clock = ManualClock()
        let platform = Environment(name: "test", clock: clock)
        _ = try await startedAgent("Silent", on: platform)
        let nurse = try await startedAgent("Nurse", on: platform)
        let call = Task { await interactionError { try await nurse.request(to: "Silent", content: "(x)", timeout: .seconds(5)) } }
        await clock.waitForSleepers(1)
        call.cancel()
        #expect(await call.value == .cancelled)
        _ = await nurse.state
        #expect(clock.sleeperCount == 0)
    }

    @Test("a reply that arrives after its request timed out is an ordinary message again")
    func lateReplyIsOrdinary() async throws {
        let clock = ManualClock()
        let platform = Environment(name: "test", clock: clock)
        let requests = Recorder<ACLMessage>()
        let slow = try await startedAgent("Slow", on: platform) {
            MessageHandler.on(.request) { _, message in requests.append(message) }
        }
        let late = Recorder<ACLMessage>()
        let nurse = try await startedAgent("Nurse", on: platform) {
            MessageHandler.on(.inform) { _, message in late.append(message) }
        }
        var probe = await EventProbe(nurse)
        let call = Task { await interactionError { try await nurse.request(to: "Slow", content: "(x)", timeout: .seconds(1)) } }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(1))
        #expect(await call.value == .timedOut(after: .seconds(1)))

        slow.send(try #require(await requests.all(atLeast: 1).first).makeReply(.inform, content: "(too late)"))
        _ = await probe.nextMessage { $0.content == "(too late)" }
        _ = await nurse.state
        #expect(late.all.map { $0.content } == ["(too late)"])
    }
}
