import Foundation
import SADECore
@testable import SADEHome
import SADETestTiming
import Testing

@Suite("The activity detectors on an obvious emergency and on a copy of a normal week", .timeLimit(.minutes(5)), .timed)
struct DetectorTests {
    /// Five weeks of ordinary days: four to learn from, the fifth to watch.
    static let data = SyntheticResident(days: 35, trainingDays: 35, seed: 11).generate()
    static let events = data.activations
    static let days = data.days
    static let learning = Array(days.prefix(28))
    static let learningEvents = events.filter { $0.time < days[28].start }

    /// Day 29 (a Monday) with the resident stopping at 10:00, after the weeks of learning.
    static var emergency: (events: [ActivityEvent], stop: Date) {
        let stop = days[28].start.addingTimeInterval(10 * 3600)
        return (learningEvents + days[28].events.filter { $0.time <= stop }, stop)
    }

    @Test("an obvious emergency: the learned quiet alarms within two hours and says why; the fixed rule after 12 h; the day-level detectors flag the day")
    func obviousEmergency() throws {
        let (events, stop) = Self.emergency
        let silence = LearnedSilence(training: Self.learningEvents, calendar: Self.data.calendar)
        let end = Self.days[29].end
        let learned = DetectorEvaluation.alarms(silence, events: events, from: Self.learningEvents.count, end: end)
        let alarm = try #require(learned.first)
        #expect(learned.count == 1, "no false alarm that morning: \(learned.map(\.reason))")
        #expect(alarm.time > stop && alarm.time.timeIntervalSince(stop) <= 2 * 3600, "\(alarm.time.timeIntervalSince(stop) / 60) min")
        #expect(alarm.reason.hasPrefix("No activity since ") && alarm.reason.contains("; usually active again by "), "\(alarm.reason)")
        let fixed = DetectorEvaluation.alarms(FixedSilence(calendar: Self.data.calendar), events: events, from: Self.learningEvents.count, end: end)
        #expect(fixed.map { $0.time.timeIntervalSince($0.since) } == [12 * 3600])
        let day = try #require(ActivityDay.days(events, from: stop, to: stop, calendar: Self.data.calendar).first)
        let routine = RoutineProfile(training: Self.learning).judge(day)
        #expect(!routine.isNormal && routine.reason?.hasPrefix("no activity") == true, "\(routine)")
        let thesis = ThesisDayDetector(training: Self.learning).judge(day)
        #expect(!thesis.isNormal, "score \(thesis.score), band \(thesis.low ?? 0)…\(thesis.high ?? 0)")
    }

    @Test("a copy of the last week learned raises nothing with our detectors; the thesis's verdicts on it are those on the original")
    func copyOfANormalWeek() {
        let week = 7 * 86400.0
        let original = Self.events.filter { $0.time >= Self.days[21].start && $0.time < Self.days[28].start }
        let copy = original.map { event in ActivityEvent(time: event.time.addingTimeInterval(week), sensor: event.sensor, room: event.room, roomType: event.roomType, isExit: event.isExit) }
        let events = Self.learningEvents + copy
        let calendar = Self.data.calendar
        let end = Self.days[28].end.addingTimeInterval(6 * 86400)
        let silence = LearnedSilence(training: Self.learningEvents, calendar: calendar)
        #expect(DetectorEvaluation.alarms(silence, events: events, from: Self.learningEvents.count, end: end).isEmpty)
        let copied = ActivityDay.days(copy, from: Self.days[28].start, to: end.addingTimeInterval(-1), calendar: calendar)
        let routine = RoutineProfile(training: Self.learning), thesis = ThesisDayDetector(training: Self.learning)
        #expect(copied.count == 7)
        #expect(copied.allSatisfy { routine.judge($0).isNormal })
        #expect(copied.map { thesis.judge($0).isNormal } == Self.days[21..<28].map { thesis.judge($0).isNormal })
    }

    @Test("the floors slid round the day are those worked out quarter by quarter afresh")
    func slidingFloors() {
        let silence = LearnedSilence(training: Self.learningEvents, calendar: Self.data.calendar)
        #expect(silence.floors.count >= 4 && silence.floors.values.allSatisfy { $0.count == 96 })
        var quiets: [LearnedSilence.Quiet] = []
        var random = SeededRandom(seed: 7)
        for _ in 0..<400 {  // spread round the day, across midnight, some past the cap
            quiets.append(LearnedSilence.Quiet(minute: Int(random.next() % 1440), weekend: false, nextDayWeekend: false, length: random.uniform(60...50_000)))
        }
        let slid = LearnedSilence.floors(of: quiets, days: 14, cap: 12 * 3600)
        let afresh = (0..<96).map { LearnedSilence.floor(of: quiets, near: $0 * 15 + 7, days: 14, cap: 12 * 3600) ?? 0 }
        #expect(slid == afresh)
        #expect(slid.contains { $0 > 0 })
    }

    @Test("being out: a quiet after the door, glitches and all, is time away; coming home with the leaving lost counts back to the last burst")
    func away() {
        let start = Date(timeIntervalSince1970: 0)
        func at(_ minutes: Double, _ room: String = "Hall", exit: Bool = false) -> ActivityEvent {
            ActivityEvent(time: start.addingTimeInterval(minutes * 60), sensor: room, room: room, isExit: exit)
        }
        let burst = [at(0, "Kitchen"), at(1, "Kitchen"), at(2, "Kitchen")]
        // Leaves at 10, a glitch at 40, back by the door at 130 with a burst.
        let out = burst + [at(10, exit: true), at(40, "Kitchen"), at(130, exit: true), at(130.2), at(130.5), at(131)]
        #expect(ActivityDay.away(out, until: start.addingTimeInterval(86400)) == [DateInterval(start: out[3].time, end: out[5].time)])
        // The leaving's door reading lost: back at 130, a burst follows, only a glitch since the burst before.
        let lost = burst + [at(40, "Kitchen"), at(130, exit: true), at(130.2), at(130.5), at(131)]
        #expect(ActivityDay.away(lost, until: start.addingTimeInterval(86400)) == [DateInterval(start: burst[2].time, end: lost[4].time)])
        // Opening the door and staying in: not out.
        let stay = burst + [at(10, exit: true), at(10.5), at(11), at(11.2)]
        #expect(ActivityDay.away(stay, until: start.addingTimeInterval(86400)).isEmpty)
    }
}
