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

    @Test("a hold ends at something done in another room, or at three motions there within ten minutes, not at one or two")
    func holdEndsElsewhere() {
        let base = [Self.event(0, "bed", "Bedroom", .press)]
        let action = ActivityEvent.markingHolds(base + [Self.event(10, "fridge", "Kitchen", .action)])
        #expect(action.map(\.holding) == ["bed", nil])
        let motions = ActivityEvent.markingHolds(base + (1...3).map { Self.event(Double($0), "pir", "Kitchen", .motion) })
        #expect(motions.map(\.holding) == ["bed", "bed", "bed", nil])
        let night = ActivityEvent.markingHolds(base + [60.0, 200, 400].map { Self.event($0, "pir", "Kitchen", .motion) })
        #expect(night.map(\.holding) == ["bed", "bed", "bed", "bed"], "three glitches over a night are not the resident elsewhere")
        let restarted = ActivityEvent.markingHolds(
            base + [Self.event(1, "pir", "Kitchen", .motion), Self.event(2, "pir", "Kitchen", .motion), Self.event(3, "pir", "Bedroom", .motion),
                    Self.event(4, "pir", "Kitchen", .motion)])
        #expect(restarted.last?.holding == "bed", "motion in the bedroom starts the count again")
    }

    @Test("the way out opened again after more than ten minutes since it last opened is coming home, not leaving")
    func arrival() {
        let marked = ActivityEvent.markingHolds([
            Self.event(0, "door", "Hall", .action, exit: true), Self.event(5, "door", "Hall", .action, exit: true),
            Self.event(60, "door", "Hall", .action, exit: true), Self.event(61, "pir", "Hall", .motion),
        ])
        #expect(marked.map(\.isExit) == [true, true, false, false])
        let walkedOut = ActivityEvent.markingHolds([
            Self.event(0, "door", "Hall", .action, exit: true), Self.event(0.5, "pir", "Hall", .motion), Self.event(90, "pir", "Hall", .motion),
            Self.event(91, "door", "Hall", .action, exit: true),
        ])
        #expect(walkedOut.map(\.isArrival) == [false, false, false, true], "the hall's motion as she went and came does not hide the coming home")
        let busy = ActivityEvent.markingHolds(
            [Self.event(0, "door", "Hall", .action, exit: true)] + (1...3).map { Self.event(Double($0), "pir", "Kitchen", .motion) }
                + [Self.event(30, "door", "Hall", .action, exit: true)])
        #expect(busy.last?.isExit == true, "someone was at home in between: this is leaving")
        #expect(marked.map(\.isArrival) == [false, false, true, false])
        let minutes = { (minute: Double) in Self.start.addingTimeInterval(minute * 60) }
        #expect(ActivityDay.away(marked, until: minutes(1440)) == [DateInterval(start: minutes(5), end: minutes(60))], "out until coming home, and not after")
    }
}
