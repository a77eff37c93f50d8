import SADEACL
import SADECore
import SADETestTiming
import Testing

@Suite("FIPA Subscribe", .timeLimit(.minutes(3)), .timed)
struct SubscribeProtocolTests {
    @Test("subscribe, agree, informs in order, cancel: the sequence ends and the responder forgets the subscriber")
    func subscribeInformCancel() async throws {
        let platform = Environment(name: "test")
        let alerts = SubscriptionResponder()
        let monitor = try await startedAgent("Monitor", on: platform) { alerts }
        var monitorProbe = await EventProbe(monitor)
        let handled = Recorder<ACLMessage>()
        let nurse = try await startedAgent("Nurse", on: platform) {
            MessageHandler(.any) { _, message in handled.append(message) }
        }
        var nurseProbe = await EventProbe(nurse)

        let subscription = try await nurse.subscribe(
            ACLMessage(.subscribe, receivers: ["Monitor"], content: "(alerts)"), timeout: .seconds(120))
        #expect(subscription.agreement?.performative == .agree)
        #expect(alerts.subscriptions.map { $0.conversationID } == [subscription.conversationID])

        for number in 1...3 { #expect(alerts.publish("(alert \(number))") == 1) }
        var received: [String] = []
        for try await inform in subscription {
            received.append(inform.content ?? "")
            #expect(inform.conversationID == subscription.conversationID)
            if received.count == 3 { await subscription.cancel() }
        }
        #expect(received == ["(alert 1)", "(alert 2)", "(alert 3)"])

        let cancel = try #require(await monitorProbe.nextMessage { $0.performative == .cancel })
        #expect(cancel.conversationID == subscription.conversationID)
        _ = await monitor.state  // let the responder finish handling the cancel
        #expect(alerts.subscriptions.isEmpty)
        // The responder's confirmation of the cancel ends the conversation quietly.
        let done = try #require(await nurseProbe.nextMessage { $0.inReplyTo == cancel.replyWith })
        #expect(done.performative == .inform)
        _ = await nurse.state
        #expect(handled.all.isEmpty)
    }

    @Test("publish informs only the subscribers its filter selects, each in its own conversation")
    func publishWithFilter() async throws {
        let platform = Environment(name: "test")
        let alerts = SubscriptionResponder()
        _ = try await startedAgent("Monitor", on: platform) { alerts }
        let heart = try await startedAgent("Heart", on: platform)
        let lungs = try await startedAgent("Lungs", on: platform)
        let heartFeed = try await heart.subscribe(
            ACLMessage(.subscribe, receivers: ["Monitor"], content: "heart"), timeout: .seconds(120))
        let lungsFeed = try await lungs.subscribe(
            ACLMessage(.subscribe, receivers: ["Monitor"], content: "lungs"), timeout: .seconds(120))
        #expect(heartFeed.conversationID != lungsFeed.conversationID)

        #expect(alerts.publish("(pulse 180)") { $0.content == "heart" } == 1)
        #expect(alerts.publish("(both)") == 2)
        var heartIterator = heartFeed.makeAsyncIterator()
        var lungsIterator = lungsFeed.makeAsyncIterator()
        #expect(try await heartIterator.next()?.content == "(pulse 180)")
        #expect(try await heartIterator.next()?.content == "(both)")
        #expect(try await lungsIterator.next()?.content == "(both)")
    }

    @Test("a refused subscription throws refused")
    func refusedSubscription() async throws {
        let platform = Environment(name: "test")
        _ = try await startedAgent("Monitor", on: platform) {
            SubscriptionResponder { _, _ in .refuse("(not-authorised)") }
        }
        let nurse = try await startedAgent("Nurse", on: platform)
        let error = await interactionError {
            try await nurse.subscribe(ACLMessage(.subscribe, receivers: ["Monitor"], content: "(x)"), timeout: .seconds(120))
        }
        #expect(error?.reply?.performative == .refuse)
        #expect(error?.reply?.content == "(not-authorised)")
    }

    @Test("a failure from the responder ends the sequence with failed, after the informs before it")
    func failureEndsSequence() async throws {
        let platform = Environment(name: "test")
        _ = try await startedAgent("Sensor", on: platform) {
            MessageHandler.on(.subscribe) { agent, message in
                agent.send(message.makeReply(.agree))
                agent.send(message.makeReply(.inform, content: "37.1"))
                agent.send(message.makeReply(.failure, content: "(sensor-broken)"))
            }
        }
        let nurse = try await startedAgent("Nurse", on: platform)
        let subscription = try await nurse.subscribe(
            ACLMessage(.subscribe, receivers: ["Sensor"], content: "(temperature)"), timeout: .seconds(120))
        var received: [String] = []
        let error = await interactionError {
            for try await inform in subscription { received.append(inform.content ?? "") }
        }
        #expect(received == ["37.1"])
        #expect(error?.reply?.content == "(sensor-broken)")
    }

    @Test("no agreement within the timeout on the platform clock throws timedOut")
    func handshakeTimeout() async throws {
        let clock = ManualClock()
        let platform = Environment(name: "test", clock: clock)
        _ = try await startedAgent("Silent", on: platform)
        let nurse = try await startedAgent("Nurse", on: platform)
        let call = Task {
            await interactionError {
                try await nurse.subscribe(ACLMessage(.subscribe, receivers: ["Silent"], content: "(x)"), timeout: .seconds(2))
            }
        }
        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(2))
        #expect(await call.value == .timedOut(after: .seconds(2)))
    }

    @Test("a stopped subscriber's sequence ends with agentStopped, and the responder drops it when an inform bounces")
    func stoppedSubscriber() async throws {
        let platform = Environment(name: "test")
        let alerts = SubscriptionResponder()
        let monitor = try await startedAgent("Monitor", on: platform) { alerts }
        var monitorProbe = await EventProbe(monitor)
        let nurse = try await startedAgent("Nurse", on: platform)
        let subscription = try await nurse.subscribe(
            ACLMessage(.subscribe, receivers: ["Monitor"], content: "(alerts)"), timeout: .seconds(120))
        let reader = Task { await interactionError { for try await _ in subscription {} } }

        await nurse.stop()
        #expect(await reader.value == .agentStopped)
        #expect(alerts.publish("(late)") == 1)
        let bounce = try #require(await monitorProbe.nextMessage { $0.performative == .failure })
        #expect(bounce.userDefined["X-undelivered-to"] != nil)
        _ = await monitor.state
        #expect(alerts.subscriptions.isEmpty)
    }

    @Test("a subscription responder answers other fipa-subscribe messages with not-understood, and an unknown cancel with failure")
    func responderStrays() async throws {
        let platform = Environment(name: "test")
        _ = try await startedAgent("Monitor", on: platform) { SubscriptionResponder() }
        let other = try await startedAgent("Other", on: platform)
        var probe = await EventProbe(other)
        other.send(ACLMessage(.propose, receivers: ["Monitor"], content: "(x)", interactionProtocol: "fipa-subscribe"))
        #expect(await probe.nextMessage()?.performative == .notUnderstood)
        other.send(ACLMessage(.cancel, receivers: ["Monitor"], interactionProtocol: "fipa-subscribe", conversationID: "none"))
        #expect(await probe.nextMessage()?.performative == .failure)
    }
}
