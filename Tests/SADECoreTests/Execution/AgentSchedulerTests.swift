#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import SADEACL
import SADECore
import Synchronization
import SADETestTiming
import Testing

/// The calling thread, to tell which thread ran a handler.
private func currentThread() -> pthread_t { pthread_self() }

/// A counter that handlers on any thread can bump.
private final class Counter: Sendable {
    private let value = Atomic(0)
    /// Adds one; returns the new count.
    func increment() -> Int { value.add(1, ordering: .relaxed).newValue }
    var count: Int { value.load(ordering: .relaxed) }
}

/// The names of this process's threads (Linux's `/proc/self/task/*/comm`).
private func threadNames() -> [String] {
    let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
    return tasks.compactMap { try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8) }
        .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
}

/// Whether `condition` holds within 10 s, looked at between yields (threads start and
/// end on the system's time: there is nothing to await).
private func eventually(_ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .seconds(10)
    while ContinuousClock.now < deadline {
        if condition() { return true }
        await Task.yield()
    }
    return condition()
}

@Suite("Agent scheduler", .timeLimit(.minutes(3)), .timed)
struct AgentSchedulerTests {
    #if os(Linux)
    @Test("a pool of its own runs its agents' work, then shutdown ends its threads; a second shutdown returns at once")
    func shutdownEndsTheThreads() async throws {
        let scheduler = AgentScheduler(threads: 2, name: "sched-stop")
        let platform = Environment(name: "stopping", clock: ContinuousClock(), scheduler: scheduler)
        let answered = Gate()
        let echo = Agent("echo", on: platform) {
            MessageHandler.on(.request) { agent, message in agent.send(message.makeReply(.inform)) }
        }
        let asker = Agent("asker", on: platform) {
            MessageHandler.on(.inform) { _, _ in answered.open() }
        }
        try await echo.start()
        try await asker.start()
        asker.send(ACLMessage(.request, receivers: ["echo"]))
        await answered.wait()
        let named = await eventually { threadNames().filter { $0.hasPrefix("sched-stop-") }.count == 2 }  // named as each starts
        #expect(named, "\(threadNames())")

        await asker.stop()
        await echo.stop()
        await scheduler.shutdown()
        // Each thread has left its loop; the system drops it from the list as it ends.
        let ended = await eventually { threadNames().filter { $0.hasPrefix("sched-stop-") }.isEmpty }
        #expect(ended, "\(threadNames())")
        await scheduler.shutdown()
    }
    #endif

    @Test("a chain of messages stays on the thread that started it: no hand-over between threads")
    func chainStaysOnOneThread() async throws {
        let platform = Environment(name: "ring", clock: ContinuousClock(), scheduler: AgentScheduler(threads: 2))
        let threads = Recorder<pthread_t>()
        let passes = Counter()
        let done = Gate()
        let size = 10
        let agents = (0..<size).map { index in
            Agent("r\(index)", on: platform) {
                MessageHandler.on(.inform) { agent, message in
                    threads.append(currentThread())
                    guard passes.increment() < 1_000 else { return done.open() }
                    agent.send(ACLMessage(.inform, receivers: [AgentIdentifier(name: "r\((index + 1) % size)")]))
                }
            }
        }
        for agent in agents { try await agent.start() }

        agents[0].send(ACLMessage(.inform, receivers: ["r1"]))
        await done.wait()

        // From the second lap on: in the first, an agent whose start's turn has not quite
        // ended on the other thread (preempted after the start's job) takes its first
        // message in that turn, and the chain goes on from there.
        let seen = threads.all
        #expect(seen.count == 1_000)
        let steady = seen[size...]
        let moves = steady.indices.filter { pthread_equal(seen[$0], seen[size]) == 0 }
        #expect(moves.isEmpty, "the ring moved between threads at \(moves.prefix(5))")
        for agent in agents { await agent.stop() }
    }

    @Test("a busy chain lets waiting agents run within the next-slot limit")
    func busyChainDoesNotStarveOthers() async throws {
        let platform = Environment(name: "fair", clock: ContinuousClock(), scheduler: AgentScheduler(threads: 1))
        let roundTrips = Counter()
        let roundTripsWhenOtherRan = Recorder<Int>()
        let done = Gate()
        let echo = Agent("echo", on: platform) {
            MessageHandler.on(.request) { agent, message in agent.send(message.makeReply(.inform)) }
        }
        let player = Agent("player", on: platform) {
            MessageHandler.on(.inform) { agent, message in
                guard roundTrips.increment() < 50_000 else { return done.open() }
                agent.send(message.makeReply(.request))
            }
        }
        let other = Agent("other", on: platform) {
            MessageHandler.on(.inform) { _, _ in
                roundTripsWhenOtherRan.append(roundTrips.count)
            }
        }
        for agent in [echo, player, other] { try await agent.start() }

        player.send(ACLMessage(.request, receivers: ["echo"]))
        while roundTrips.count < 100 { await Task.yield() }
        player.send(ACLMessage(.inform, receivers: ["other"]))
        let sentAt = roundTrips.count
        await done.wait()

        // Once queued, the other agent waits at most `nextSlotLimit` turns of the
        // chain (a round trip is two turns), not for the chain's end.
        let ranAt = try #require(roundTripsWhenOtherRan.all.first)
        #expect(ranAt - sentAt <= AgentScheduler.nextSlotLimit)
        for agent in [echo, player, other] { await agent.stop() }
    }

    @Test("handlers run isolated to their agent, as the runtime's check confirms")
    func handlersAreIsolated() async throws {
        let platform = Environment(name: "isolation", clock: ContinuousClock(), scheduler: AgentScheduler(threads: 2))
        let names = Recorder<String>()
        let done = Gate()
        let agent = Agent("checked", on: platform) {
            MessageHandler.on(.inform) { agent, _ in
                // `assumeIsolated` traps unless the agent's executor runs this code.
                names.append(agent.assumeIsolated { $0.name })
                done.open()
            }
        }
        try await agent.start()
        agent.send(ACLMessage(.inform, receivers: ["checked"]))
        await done.wait()
        #expect(names.all == ["checked"])
        await agent.stop()
    }

    @Test("a task preferring the scheduler awaits agents without changing threads")
    func taskPreferringSchedulerStaysOnItsThread() async throws {
        let scheduler = AgentScheduler(threads: 2)
        let platform = Environment(name: "bulk", clock: ContinuousClock(), scheduler: scheduler)
        let sameThread = try await Task(executorPreference: scheduler) {
            let before = currentThread()
            var agents: [Agent] = []
            for index in 0..<200 {
                let agent = Agent(name: "a\(index)", environment: platform)
                try await agent.start()
                agents.append(agent)
            }
            for agent in agents { await agent.stop() }
            return pthread_equal(before, currentThread()) != 0
        }.value
        #expect(sameThread)
        #expect(platform.agents.isEmpty)
    }

    @Test("agents on many threads deliver every message exactly once, in order per sender")
    func manySendersKeepOrder() async throws {
        let platform = Environment(name: "order", clock: ContinuousClock(), scheduler: AgentScheduler(threads: 4))
        let received = Recorder<(String, Int)>()
        let done = Gate()
        let expected = 8 * 500
        let sink = Agent("sink", on: platform) {
            MessageHandler.on(.inform) { _, message in
                received.append((message.sender?.localName.description ?? "", Int(message.content ?? "") ?? -1))
                if received.count == expected { done.open() }
            }
        }
        let senders = (0..<8).map { index in
            Agent("s\(index)", on: platform) {
                MessageHandler.on(.request) { agent, _ in
                    for number in 0..<500 { agent.send(ACLMessage(.inform, receivers: ["sink"], content: "\(number)")) }
                }
            }
        }
        try await sink.start()
        for sender in senders { try await sender.start() }
        for sender in senders { sender.send(ACLMessage(.request, receivers: [sender.identifier])) }
        await done.wait()

        let bySender = Dictionary(grouping: received.all, by: \.0).mapValues { $0.map(\.1) }
        #expect(bySender.count == 8)
        for (_, numbers) in bySender { #expect(numbers == Array(0..<500)) }
        for agent in senders + [sink] { await agent.stop() }
    }
}
