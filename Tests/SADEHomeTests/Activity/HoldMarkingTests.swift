import Foundation
@testable import SADEHome
import SADETestTiming
import Testing

@Suite("Seats, beds and the way out: what a reading tells of the resident, worked out from the readings before it", .timeLimit(.minutes(1)), .timed)
struct HoldMarkingTests {
    static let start = Date(timeIntervalSince1970: 1_772_409_600)

    static func event(_ minute: Double, _ sensor: String, _ room: String, _ signal: ActivityEvent.Signal, exit: Bool = false) -> ActivityEvent {
        ActivityEvent(time: start.addingTimeInterval(minute * 60), sensor: sensor, room: room, isExit: exit, signal: signal)
    }

    @Test("a seat pressed is held until released; a re-sent press or release is no new one")
    func holdAndRepeats() {
        let marked = ActivityEvent.markingHolds([
            Self.event(0, "seat", "Living", .press), Self.event(30, "seat", "Living", .press), Self.event(40, "pir", "Living", .motion),
            Self.event(90, "seat", "Living", .release), Self.event(95, "seat", "Living", .release), Self.event(120, "seat", "Living", .release),
        ])
        #expect(marked.map(\.time) == [0, 40, 90].map { Self.start.addingTimeInterval($0 * 60) }, "the repeats are dropped")
        #expect(marked.map(\.holding) == ["seat", "seat", nil])
    }

    @Test("a hold ends at something done in another room, or at three motions there, not at one or two")
    func holdEndsElsewhere() {
        let base = [Self.event(0, "bed", "Bedroom", .press)]
        let action = ActivityEvent.markingHolds(base + [Self.event(10, "fridge", "Kitchen", .action)])
        #expect(action.map(\.holding) == ["bed", nil])
        let motions = ActivityEvent.markingHolds(base + (1...3).map { Self.event(Double($0), "pir", "Kitchen", .motion) })
        #expect(motions.map(\.holding) == ["bed", "bed", "bed", nil])
    }

    @Test("the way out opened again after more than ten minutes since it last opened is coming home, not leaving")
    func arrival() {
        let marked = ActivityEvent.markingHolds([
            Self.event(0, "door", "Hall", .action, exit: true), Self.event(5, "door", "Hall", .action, exit: true),
            Self.event(60, "door", "Hall", .action, exit: true), Self.event(61, "pir", "Hall", .motion),
        ])
        #expect(marked.map(\.isExit) == [true, true, false, false])
        #expect(marked.map(\.isArrival) == [false, false, true, false])
        let minutes = { (minute: Double) in Self.start.addingTimeInterval(minute * 60) }
        #expect(ActivityDay.away(marked, until: minutes(1440)) == [DateInterval(start: minutes(5), end: minutes(60))], "out until coming home, and not after")
    }
}
