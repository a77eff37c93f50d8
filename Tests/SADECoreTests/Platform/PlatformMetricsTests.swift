import Metrics
import MetricsTestKit
import SADEACL
import SADECore
import SADETestTiming
import Testing

@Suite("A platform's metrics: agents alive, messages delivered and failed, mailbox depth", .timeLimit(.minutes(5)), .timed)
struct PlatformMetricsTests {
    @Test("agents alive follow starts and stops; delivered and failed messages are counted by reason")
    func agentsAndMessages() async throws {
        let metrics = TestMetrics()
        let platform = Environment(name: "ward", clock: ManualClock(), metrics: metrics)
        let dimensions = [("platform", "ward")]
        let alice = Agent(name: "alice", environment: platform)
        let bob = Agent(name: "bob", environment: platform)
        try await alice.start()
        try await bob.start()
        #expect(try metrics.expectMeter("sade_agents_alive", dimensions).lastValue == 2)

        var probe = await EventProbe(bob)
        alice.send(ACLMessage(.inform, receivers: [bob.identifier], content: "hello"))
        #expect(await probe.nextMessage()?.content == "hello")
        #expect(try metrics.expectCounter("sade_messages_delivered_total", dimensions).totalValue == 1)

        var alicesProbe = await EventProbe(alice)
        alice.send(ACLMessage(.inform, receivers: [AgentIdentifier(name: "nobody@ward")], content: "lost"))
        let failure = try #require(await alicesProbe.nextMessage { $0.performative == .failure })
        #expect(failure.userDefined["X-failure-reason"] == "unknown-agent")
        let failed = try metrics.expectCounter("sade_messages_failed_total", [("platform", "ward"), ("reason", "unknown-agent")])
        #expect(failed.totalValue == 1)
        // The failure notice itself was delivered to alice.
        #expect(try metrics.expectCounter("sade_messages_delivered_total", dimensions).totalValue == 2)

        await bob.stop()
        #expect(try metrics.expectMeter("sade_agents_alive", dimensions).lastValue == 1)
        await alice.stop()
        #expect(try metrics.expectMeter("sade_agents_alive", dimensions).lastValue == 0)
    }

    @Test("the mailbox gauges count what waits, in all mailboxes and in the deepest")
    func mailboxDepth() async throws {
        let metrics = TestMetrics()
        let platform = Environment(name: "ward", clock: ManualClock(), metrics: metrics)
        let alice = Agent(name: "alice", environment: platform)
        let bob = Agent(name: "bob", environment: platform)
        try await alice.start()
        try await bob.start()
        try await alice.suspend()
        try await bob.suspend()
        for index in 0..<3 { platform.route(ACLMessage(.inform, receivers: [alice.identifier], content: "\(index)")) }
        platform.route(ACLMessage(.inform, receivers: [bob.identifier], content: "x"))
        #expect(alice.mailboxDepth == 3)

        platform.recordMailboxDepth()
        #expect(try metrics.expectGauge("sade_mailbox_messages", [("platform", "ward")]).lastValue == 4)
        #expect(try metrics.expectGauge("sade_mailbox_deepest", [("platform", "ward")]).lastValue == 3)

        var probe = await EventProbe(alice)
        try await alice.resume()
        for _ in 0..<3 { _ = await probe.nextMessage() }
        _ = await alice.state  // the batch counts as waiting until its handling has ended, on the agent's own time
        platform.recordMailboxDepth()
        #expect(try metrics.expectGauge("sade_mailbox_messages", [("platform", "ward")]).lastValue == 1)
        #expect(try metrics.expectGauge("sade_mailbox_deepest", [("platform", "ward")]).lastValue == 1)
        await alice.stop()
        await bob.stop()
    }

    @Test("every failure's code has its counter")
    func failureCodes() {
        let agent = AgentIdentifier(name: "a@p")
        let failures: [DeliveryFailure] = [
            .unknownAgent(agent), .agentStopped(agent), .unreachable(agent, reason: ""), .timedOut(agent, reason: ""),
            .rejected(agent, reason: ""), .queueFull(agent), .noReceiver,
        ]
        #expect(failures.map(\.code) == DeliveryFailure.codes)
    }
}
