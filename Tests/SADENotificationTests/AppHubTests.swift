import Foundation
import SADECore
import SADENotification
import SADETestTiming
import Testing

@Suite("In-app notification hub", .timeLimit(.minutes(3)), .timed)
struct AppHubTests {
    @Test("1,000 concurrent subscribers each get every notification; a stalled one blocks nobody")
    func thousandSubscribersOneStalled() async throws {
        let hub = AppNotificationHub(subscriberBuffer: 8)
        let stalled = hub.subscribe()  // never read until the end
        let count = 50
        let readers = (0..<1000).map { _ in hub.subscribe(buffer: count) }  // room for all: no reader can fall behind
        #expect(hub.subscriberCount == 1001)

        let received = await withTaskGroup(of: Int.self) { group in
            for stream in readers {
                group.addTask {
                    var seen = 0
                    for await _ in stream {
                        seen += 1
                        if seen == count { break }
                    }
                    return seen
                }
            }
            for number in 1...count {
                hub.publish(Notice(recipients: [.user("nurse1")], severity: .information, title: "\(number)", body: ""))
                await Task.yield()
            }
            return await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(received == Array(repeating: count, count: 1000))

        var lagging = stalled.makeAsyncIterator()
        var titles: [String] = []
        for _ in 0..<8 { titles.append(await lagging.next()?.title ?? "") }
        #expect(titles == (43...50).map(String.init), "the stalled subscriber kept only its newest 8")
    }

    @Test("subscribers see only their own notifications; recent ones are kept")
    func filteredByRecipient() async throws {
        let hub = AppNotificationHub(retention: 2)
        var nurse = hub.subscribe(for: "nurse1").makeAsyncIterator()
        hub.publish(Notice(recipients: [.user("doctor1")], severity: .warning, title: "for the doctor", body: ""))
        hub.publish(Notice(recipients: [.user("nurse1"), .user("doctor1")], severity: .alarm, title: "for both", body: ""))
        hub.publish(Notice(recipients: [.email("x@y.test")], severity: .alarm, title: "mail only", body: ""))
        #expect(await nurse.next()?.title == "for both")
        #expect(hub.recent(for: "doctor1").map(\.title) == ["for both"])
        #expect(hub.recent().map(\.title) == ["for both", "mail only"])
        #expect(!hub.accepts(Notice(recipients: [.email("x@y.test")], severity: .alarm, title: "", body: "")))
    }

    @Test("AlertAction raises the alert an agent builds, through the desk")
    func alertActionInAnAgent() async throws {
        let (_, time) = manualTime()
        let hub = AppNotificationHub()
        let outbox = try NotificationOutbox(directory: nil, channels: [hub], clock: time)
        await outbox.start()
        let desk = AlertDesk(outbox: outbox)
        var nurse = hub.subscribe(for: "nurse1").makeAsyncIterator()
        let platform = Environment(name: "ward", clock: ManualClock())
        let alertAgent = Agent("AlertAgent", on: platform, runBDICycleOnStart: true) {
            Goal("warn") {
                Plan("raise") {
                    AlertAction.raise(desk: desk, policy: EscalationPolicy([.init(after: .zero, notify: [.user("nurse1")])])) { context in
                        Notice(recipients: [], severity: .alarm, title: "from \(context.agent.name)", body: "")
                    }
                }
            }
        }
        try await alertAgent.start()
        #expect(await nurse.next()?.title == "from AlertAgent")
        await outbox.stop()
    }
}
