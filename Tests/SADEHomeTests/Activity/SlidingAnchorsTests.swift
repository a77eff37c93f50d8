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
    /// seconds to hours, so that windows start and end everywhere.
    static func events(seed: UInt64, count: Int) -> [ActivityEvent] {
        var random = SplitMix64(seed: seed)
        let rooms: [(String, RoomType)] = [("Bedroom", .bedroom), ("Kitchen", .kitchen), ("Hall", .hall), ("Lounge", .livingRoom), ("Bathroom", .bathroom)]
        var time = Date(timeIntervalSince1970: 1_800_000_000)
        return (0..<count).map { _ in
            let gap: TimeInterval = switch Int.random(in: 0..<10, using: &random) {
            case 0..<5: .random(in: 1...120, using: &random)
            case 5..<8: .random(in: 120...1_200, using: &random)
            case 8: .random(in: 1_200...14_400, using: &random)
            default: .random(in: 14_400...50_000, using: &random)
            }
            time += gap
            let (room, type) = rooms[Int.random(in: 0..<rooms.count, using: &random)]
            let isExit = room == "Hall" && Int.random(in: 0..<4, using: &random) == 0
            return ActivityEvent(time: time, sensor: isExit ? "door" : "motion-\(room)", room: room, roomType: type, isExit: isExit)
        }
    }

    @Test("every window of 1,500 noisy activations, three seeds: the same anchors, the same trailing ones, the same alarms")
    func sameAsAfresh() {
        for seed: UInt64 in [1, 2, 3] {
            let history = Self.events(seed: seed, count: 3_000)
            let learning = Array(history.prefix(1_500)), events = Array(history.suffix(1_500))
            let silence = LearnedSilence(training: learning, calendar: Self.calendar)
            #expect(silence.isTrained, "seed \(seed): something was learned")
            var window = LearnedSilence.SlidingAnchors(silence, events: events)
            var first = 0, alarms: [SilenceAlarm] = [], differing = 0, moved = 0
            for index in events.indices {
                while events[index].time.timeIntervalSince(events[first].time) > LearnedSilence.memory { first += 1 }
                moved += first > window.start ? 1 : 0
                let step = window.move(first: first, last: index)
                let afresh = silence.anchors(in: events[first...index])
                if step.isAnchor != (afresh.last?.index == index) || window.trailing() != silence.trailingAnchors(in: events[first...index]) {
                    differing += 1
                }
                if let alarm = silence.alarm(after: events[first...index]) {
                    let next = index + 1 < events.count ? events[index + 1].time : events[index].time.addingTimeInterval(86_400)
                    if alarm.time < next, alarm.since != alarms.last?.since { alarms.append(alarm) }
                }
            }
            #expect(differing == 0, "seed \(seed): \(differing) windows decided otherwise")
            #expect(moved > 150, "seed \(seed): the window's start moved \(moved) times")
            let end = events[events.count - 1].time.addingTimeInterval(86_400)
            let sliding = silence.alarms(in: events, from: 0, end: end)
            #expect(sliding == alarms, "seed \(seed): \(sliding.count) alarms sliding, \(alarms.count) afresh")
            #expect(!alarms.isEmpty, "seed \(seed): the noisy days raise alarms to compare")
        }
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
    }
}
