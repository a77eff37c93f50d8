import Foundation
@testable import SADEHome
import SADETestSupport
import SADETestTiming
import Testing

@Suite("The learned quiet's sliding window decides as the whole window worked out afresh", .timeLimit(.minutes(5)), .timed)
struct SlidingAnchorsTests {
    static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    /// Noisy activations: bursts in a room, lone glitches, the door, sleep; gaps from
    /// seconds to hours, so that windows start and end everywhere. With `minutes`, times
    /// are whole minutes, as many sensors report them: ties, and gaps of exactly the
    /// corroboration's 10 minutes.
    static func events(seed: UInt64, count: Int, minutes: Bool = false) -> [ActivityEvent] {
        var random = SplitMix64(seed: seed)
        let rooms: [(String, RoomType)] = [("Bedroom", .bedroom), ("Kitchen", .kitchen), ("Hall", .hall), ("Lounge", .livingRoom), ("Bathroom", .bathroom)]
        var time = Date(timeIntervalSince1970: 1_800_000_000)
        return (0..<count).map { _ in
            var gap: TimeInterval = switch Int.random(in: 0..<10, using: &random) {
            case 0..<5: .random(in: 1...120, using: &random)
            case 5..<8: .random(in: 120...1_200, using: &random)
            case 8: .random(in: 1_200...14_400, using: &random)
            default: .random(in: 14_400...50_000, using: &random)
            }
            if minutes { gap = (gap / 60).rounded(.down) * 60 }
            time += gap
            let (room, type) = rooms[Int.random(in: 0..<rooms.count, using: &random)]
            let isExit = room == "Hall" && Int.random(in: 0..<4, using: &random) == 0
            return ActivityEvent(time: time, sensor: isExit ? "door" : "motion-\(room)", room: room, roomType: type, isExit: isExit)
        }
    }

    /// Only ``LearnedSilence/alarm(after:)``: its alarms are the protocol's own, each
    /// activation's window worked out afresh.
    struct Afresh: SilenceDetector {
        let detector: LearnedSilence
        var name: String { detector.name }
        func alarm(after recent: ArraySlice<ActivityEvent>) -> SilenceAlarm? { detector.alarm(after: recent) }
    }

    @Test("""
        every window of 1,500 noisy activations (three seeds; two in whole minutes; one with no corroboration): the same \
        anchors and trailing ones as afresh, and the same alarms from the first activation or a later one
        """,
        arguments: [(1, false, 600), (2, false, 600), (3, false, 600), (4, true, 600), (5, true, 600), (6, false, 0)] as [(UInt64, Bool, Double)])
    func sameAsAfresh(seed: UInt64, minutes: Bool, corroboration: Double) {
        let history = Self.events(seed: seed, count: 3_000, minutes: minutes)
        let learning = Array(history.prefix(1_500)), events = Array(history.suffix(1_500))
        let silence = LearnedSilence(training: learning, calendar: Self.calendar, corroboration: corroboration)
        #expect(silence.isTrained, "something was learned")
        var window = LearnedSilence.SlidingAnchors(silence, events: events)
        var first = 0, differing = 0, moved = 0
        for index in events.indices {
            while events[index].time.timeIntervalSince(events[first].time) > LearnedSilence.memory { first += 1 }
            moved += first > window.start ? 1 : 0
            let step = window.move(first: first, last: index)
            let afresh = silence.anchors(in: events[first...index])
            if step.isAnchor != (afresh.last?.index == index) || window.trailing() != silence.trailingAnchors(in: events[first...index]) {
                differing += 1
            }
        }
        #expect(differing == 0, "\(differing) windows decided otherwise")
        #expect(moved > 150, "the window's start moved \(moved) times")
        let end = events[events.count - 1].time.addingTimeInterval(86_400)
        for start in [0, 700] {
            let sliding = silence.alarms(in: events, from: start, end: end)
            let afresh = Afresh(detector: silence).alarms(in: events, from: start, end: end)
            #expect(sliding == afresh, "from \(start): \(sliding.count) alarms sliding, \(afresh.count) afresh")
            #expect(!afresh.isEmpty, "from \(start): the noisy days raise alarms to compare")
        }
    }

    @Test("a start that moves to activations exactly the corroboration apart: what the old start still reached is worked out again")
    func tieAtTheCorroboration() {
        let t0 = Date(timeIntervalSince1970: 1_800_000_000)
        let events = [
            ActivityEvent(time: t0, sensor: "motion-kitchen", room: "Kitchen", roomType: .kitchen),
            ActivityEvent(time: t0, sensor: "motion-kitchen", room: "Kitchen", roomType: .kitchen),
            ActivityEvent(time: t0 + 600, sensor: "door", room: "Hall", roomType: .hall, isExit: true),
            ActivityEvent(time: t0 + 600, sensor: "motion-kitchen", room: "Kitchen", roomType: .kitchen),
        ]
        let silence = LearnedSilence(training: [], calendar: Self.calendar, corroboration: 600)
        var window = LearnedSilence.SlidingAnchors(silence, events: events)
        window.move(first: 0, last: 3)
        #expect(window.trailing() == [3], "from the first: two in the kitchen 10 min before make the last sure")
        // The door decides the same from either start, but the kitchen after it at the same
        // moment still reached the two kitchen activations from the old start.
        window.move(first: 2, last: 3)
        #expect(window.trailing() == silence.trailingAnchors(in: events[2...3]))
        #expect(window.trailing() == [2, 3])
    }

    @Test("a window that jumps past everything kept, as the trial's days do, starts afresh")
    func jump() {
        let events = Self.events(seed: 9, count: 400)
        let silence = LearnedSilence(training: Array(events.prefix(200)), calendar: Self.calendar)
        var window = LearnedSilence.SlidingAnchors(silence, events: events)
        window.move(first: 0, last: 10)
        window.move(first: 300, last: 320)
        #expect(window.trailing() == silence.trailingAnchors(in: events[300...320]))
        #expect(window.start == 300 && window.end == 321)
        window.move(first: 300, last: 320)  // nothing new
        #expect(window.end == 321)
    }
}
