import SADEACL
import SADECore
import SADETestTiming
import Testing

private extension BeliefKey where Value == Bool {
    static let cold: BeliefKey<Bool> = "cold"
}

private extension BeliefKey where Value == Int {
    static let roomTemperature: BeliefKey<Int> = "temperature"
}

/// What an introspector and a sniffer see: an agent's snapshot, its reasoning cycles'
/// decisions, and the platform's traffic for chosen agents.
@Suite("Introspection and sniffing", .timeLimit(.minutes(3)), .timed)
struct IntrospectionTests {
    /// A heater: keeps the room warm, with a plan that only applies when the window is shut.
    static func heater(on platform: Environment) -> Agent {
        Agent("Heater", on: platform) {
            Belief(.cold, false)
            Belief(.roomTemperature, 21)
            ServiceDescription(name: "heating", type: "heating", protocols: ["fipa-request"])
            Goal.maintain("warm", .belief(.cold, is: false)) {
                Plan("heat", context: Condition("window shut") { !($0["window-open"] as? Bool ?? false) }) {
                    OneShotAction("switch on") { context in await context.setBelief(.cold, to: false) }
                }
            }
            MessageHandler.on(.inform) { agent, message in
                if message.content == "(window open)" { agent.setBelief("window-open", to: true) }
                agent.setBelief(.cold, to: true)
                agent.send(message.makeReply(.agree))
            }
        }
    }

    @Test("a snapshot shows the action an intention runs while it runs, and none once it is done")
    func runningAction() async throws {
        let platform = Environment(name: "house")
        let (started, running) = AsyncStream.makeStream(of: Void.self)
        let (released, release) = AsyncStream.makeStream(of: Void.self)
        let door = Agent("Door", on: platform, runBDICycleOnStart: true) {
            Goal("open") {
                Plan("slide") {
                    OneShotAction("wait for the motor") { _ in
                        running.yield()
                        for await _ in released { break }
                    }
                }
            }
        }
        try await door.start()
        for await _ in started { break }
        let during = try #require(await door.snapshot().goals.first)
        #expect(during.isIntended && during.action == "wait for the motor" && during.status == .executing)
        var probe = await EventProbe(door)
        release.yield()
        #expect(await probe.waitFor(.goalStatusChanged(goal: "open", status: .achieved)))
        #expect(await door.snapshot().goals.first?.action == nil)
        await door.stop()
    }

    @Test("a snapshot shows beliefs with values and types, goals with plans, services, mailbox and counters")
    func snapshot() async throws {
        let platform = Environment(name: "house")
        let heater = Self.heater(on: platform)
        try await heater.start()
        let before = await heater.snapshot()
        #expect(before.identifier == "Heater@house" && before.state == .active)
        #expect(before.beliefs.map(\.name) == ["cold", "temperature"])
        #expect(before.beliefs.map(\.value) == ["false", "21"] && before.beliefs.map(\.type) == ["Bool", "Int"])
        #expect(before.goals.map(\.name) == ["warm"] && before.goals.first?.kind == "maintain (cold == false)")
        #expect(before.goals.first?.plans.map(\.name) == ["heat"])
        #expect(before.services.map(\.type) == ["heating"])
        #expect(before.messagesSent == 0 && before.messagesReceived == 0 && before.mailboxDepth == 0)
        #expect(before.strategies["planSelection"] != nil && before.strategies.count == 4)

        let thermostat = Agent("Thermostat", on: platform) {}
        try await thermostat.start()
        var probe = await EventProbe(thermostat)
        thermostat.send(ACLMessage(.inform, receivers: ["Heater"], content: "(cold)"))
        #expect(await probe.nextMessage()?.performative == .agree)
        let after = await heater.snapshot()
        #expect(after.messagesReceived == 1 && after.messagesSent == 1)
        #expect(await thermostat.snapshot().messagesSent == 1)
    }

    @Test("each reasoning cycle tells its trigger, the options, the goal chosen and the plan selected — or that it left a goal waiting")
    func reasoningRecords() async throws {
        let platform = Environment(name: "house")
        let heater = Self.heater(on: platform)
        try await heater.start()
        let thermostat = Agent("Thermostat", on: platform) {}
        try await thermostat.start()
        var probe = await EventProbe(heater)

        thermostat.send(ACLMessage(.inform, receivers: ["Heater"], content: "(cold)"))
        let record = try #require(await probe.nextRecord { !$0.chosen.isEmpty }, "no cycle chose a goal")
        #expect(record.trigger == "message (inform)")
        #expect(record.options.map(\.goal) == ["warm"] && record.chosen == ["warm"])
        #expect(record.selected == ["warm": ["heat"]] && record.withoutPlan.isEmpty)
        #expect(record.strategies.count == 4)
        #expect(await probe.waitFor(.goalStatusChanged(goal: "warm", status: .achieved)))

        // With the window open, the only plan does not apply: deliberation leaves the goal waiting, and the record says so.
        thermostat.send(ACLMessage(.inform, receivers: ["Heater"], content: "(window open)"))
        let notChosen = try #require(await probe.nextRecord { !$0.notChosen.isEmpty }, "no cycle told of a goal left waiting")
        #expect(notChosen.notChosen == ["warm"] && notChosen.chosen.isEmpty && notChosen.selected.isEmpty)
        #expect(notChosen.options.map(\.goal) == ["warm"] && notChosen.options.map(\.status) == [.waiting])
    }

    @Test("the sniffer sees what the chosen agents send and receive, and nothing else; or everyone's traffic")
    func sniffer() async throws {
        let platform = Environment(name: "house")
        let heater = Self.heater(on: platform)
        try await heater.start()
        let thermostat = Agent("Thermostat", on: platform) {}
        let lamp = Agent("Lamp", on: platform) {}
        try await thermostat.start()
        try await lamp.start()

        let traffic = platform.sniff(["Thermostat"])
        var watched = traffic.makeAsyncIterator()
        lamp.send(ACLMessage(.inform, receivers: ["Heater"], content: "(lamp on)"))  // neither from nor to the thermostat
        thermostat.send(ACLMessage(.inform, receivers: ["Heater"], content: "(cold)"))
        let first = await watched.next()
        #expect(first?.sender?.name == "Thermostat@house" && first?.content == "(cold)")
        let second = await watched.next()
        #expect(second?.performative == .agree && second?.receivers.map(\.name) == ["Thermostat@house"])

        // Named by its full name, an agent's messages are seen however they name it; the
        // AMS's failure for a message to nobody is seen too.
        let lampTraffic = platform.sniff(["Lamp@house"])
        var lampWatched = lampTraffic.makeAsyncIterator()
        lamp.send(ACLMessage(.request, receivers: ["Nobody"], content: "(anyone?)"))
        #expect(await lampWatched.next()?.content == "(anyone?)")
        let failure = await lampWatched.next()
        #expect(failure?.performative == .failure && failure?.sender?.name == "ams@house" && failure?.receivers.map(\.name) == ["Lamp@house"])

        // Everyone's traffic: the lamp's message too.
        let everything = platform.sniff()
        var all = everything.makeAsyncIterator()
        lamp.send(ACLMessage(.inform, receivers: ["Heater"], content: "(lamp off)"))
        #expect(await all.next()?.content == "(lamp off)")
    }
}
