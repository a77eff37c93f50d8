import Foundation
import SADECore

/// The detectors on a real home's recording, by Wilhelm & Wahl's method (Sensors 2024):
/// learned on the first recorded days, judged on the rest. Nobody there had an emergency,
/// so every alarm on a judged day is a false one; emergencies are injected — a judged
/// day is cut at a random waking moment and every event after it removed until the next
/// day's first, as if the resident had collapsed — and the time from the cut to the
/// first alarm is measured (missed: none before the next day's first event).
///
/// Days without any event are gaps in the recording (the system was off, or nobody was
/// home): they are neither learned from nor judged, and a quiet that runs into one (or
/// past the recording's end) is not an alarm: it may be the recording's, not the resident's.
/// The day detectors learn from and judge only days the recording ran through (events
/// the day before and the day after). An alarm that came before the cut was a false
/// one: the emergency after it counts as missed.
public struct RealHomeEvaluation: Sendable {
    /// The resident's activations, oldest first.
    public var events: [ActivityEvent]
    /// The flat's calendar.
    public var calendar: Calendar
    /// How many recorded days the detectors learn from.
    public var trainingDays: Int
    /// How many emergencies to inject.
    public var injections: Int
    /// The seed of the cuts.
    public var seed: UInt64
    /// The data set's annotated activities (label → episodes), for alarms raised while
    /// the resident slept or was out, and waking moments to cut at.
    public var annotations: [String: [DateInterval]]

    /// An evaluation.
    public init(
        events: [ActivityEvent], calendar: Calendar, trainingDays: Int, injections: Int = 100, seed: UInt64 = 1,
        annotations: [String: [DateInterval]] = [:]
    ) {
        self.events = events
        self.calendar = calendar
        self.trainingDays = trainingDays
        self.injections = injections
        self.seed = seed
        self.annotations = annotations
    }

    /// When the annotations say the resident slept (labels containing "sleep").
    var asleep: [DateInterval] { annotations.filter { $0.key.lowercased().contains("sleep") }.flatMap(\.value) }
    /// When the annotations say the resident was out (labels "Leaving", "Leave_Home", "Out…").
    var out: [DateInterval] {
        annotations.filter { ["leav", "out"].contains(where: $0.key.lowercased().contains) }.flatMap(\.value)
    }

    /// The figures.
    public func run() -> RealHomeReport {
        guard let first = events.first, let last = events.last else {
            return RealHomeReport(recordedDays: 0, gapDays: 0, trainingDays: 0, judgedDays: 0, injected: 0, trial: .init(days: 0, alarms: [], baseline: 0, isPassed: false), detectors: [])
        }
        let all = ActivityDay.days(events, from: first.time, to: last.time, calendar: calendar)
        let recorded = all.indices.filter { !all[$0].isEmpty }
        let training = recorded.prefix(trainingDays).map { all[$0] }
        // The recording ran through the day (the days on both sides have events): what a
        // day detector may learn from and judge; a day the recording began or stopped in is not.
        let complete = { (index: Int) in index > 0 && index + 1 < all.count && !all[index - 1].isEmpty && !all[index + 1].isEmpty }
        let judged = Array(recorded.dropFirst(trainingDays))
        let learnedUntil = training.last?.end ?? first.time
        let testStart = events.partitioningIndex { $0.time >= learnedUntil }
        let learning = Array(events[..<testStart])
        let proven = ProvenSilence(training: learning, days: training, calendar: calendar)
        let silence: [any SilenceDetector] = [FixedSilence(calendar: calendar), LearnedSilence(training: learning, calendar: calendar), proven]
        let completeTraining = recorded.prefix(trainingDays).filter(complete).map { all[$0] }
        let dayDetectors: [any DayDetector] = [ThesisDayDetector(training: completeTraining), RoutineProfile(training: completeTraining)]
        let cuts = self.cuts(days: all, judged: judged)
        let asleep = self.asleep, out = self.out
        func alarm(_ time: Date, _ reason: String) -> RealHomeReport.Alarm {
            RealHomeReport.Alarm(time: time, reason: reason, whileAsleep: asleep.contains { $0.contains(time) }, whileOut: out.contains { $0.contains(time) })
        }
        let judgedDays = Set(judged)
        // On a judged day, and the recording goes on: the next event comes without a day
        // without any in between (a quiet that runs into a gap may be the recording's).
        func isJudged(_ time: Date) -> Bool {
            guard let index = all.lastIndex(where: { $0.start <= time }), judgedDays.contains(index), time < all[index].end else { return false }
            let next = events.partitioningIndex { $0.time > time }
            guard next < events.count else { return false }
            return !all[index...].prefix { $0.start <= events[next].time }.contains(where: \.isEmpty)
        }

        var rows: [RealHomeReport.Detector] = []
        for detector in silence {
            let alarms = DetectorEvaluation.alarms(detector, events: events, from: testStart, end: all.last?.end ?? last.time)
                .filter { isJudged($0.time) }.map { alarm($0.time, $0.reason) }
            var misses: [RealHomeReport.Miss] = []
            let times = cuts.map { cut -> TimeInterval? in
                var start = cut.lastBefore
                while start > 0, events[cut.lastBefore].time.timeIntervalSince(events[start - 1].time) <= LearnedSilence.memory { start -= 1 }
                // Its quiet's one alarm: before the cut it was a false one, and nothing follows it.
                let raised = detector.alarm(after: events[start...cut.lastBefore])
                guard let raised, raised.time >= cut.time, raised.time < cut.resumption else {
                    misses.append(RealHomeReport.Miss(cut: cut.time, resumption: cut.resumption, alarm: raised?.time, reason: raised?.reason))
                    return nil
                }
                return raised.time.timeIntervalSince(cut.time)
            }
            var row = RealHomeReport.Detector(name: detector.name, falseAlarms: alarms, judgedDays: judged.count, cuts: cuts, times: times, calendar: calendar)
            row.misses = misses
            rows.append(row)
        }
        for detector in dayDetectors {
            // Raised at the nightly review, at the day's end (asleep or out: then).
            let alarms = judged.filter(complete).compactMap { index -> RealHomeReport.Alarm? in
                let verdict = detector.judge(all[index])
                return verdict.isNormal ? nil : alarm(all[index].end.addingTimeInterval(-1), "\(all[index].label): \(verdict.reason ?? "an unusual day")")
            }
            let times = cuts.map { cut -> TimeInterval? in
                let day = all[cut.day]
                let kept = day.events.filter { $0.time < cut.time }
                let cutDay = ActivityDay.days(kept, from: day.start, to: day.start, calendar: calendar)[0]
                return detector.judge(cutDay).isNormal ? nil : day.end.timeIntervalSince(cut.time)
            }
            rows.append(RealHomeReport.Detector(
                name: "\(detector.name), nightly", falseAlarms: alarms, judgedDays: judged.filter(complete).count, cuts: cuts, times: times, calendar: calendar))
        }
        return RealHomeReport(
            recordedDays: recorded.count, gapDays: all.count - recorded.count, trainingDays: training.count, judgedDays: judged.count,
            injected: cuts.count, trial: RealHomeReport.Trial(
                days: proven.trial.days, alarms: proven.trial.alarms.map { alarm($0.time, $0.reason) }, baseline: proven.trial.baseline,
                isPassed: proven.trial.isPassed),
            detectors: rows)
    }

    /// An injected emergency: the day, the moment, the last event before it and when the
    /// events start again (the next day's first).
    struct Cut {
        var day: Int
        var time: Date
        var lastBefore: Int
        var resumption: Date
    }

    /// ``injections`` cuts on judged days followed by a recorded day, each at a waking
    /// moment: between the day's first and last activation outside the bedroom, not while
    /// the annotations say the resident slept or was out.
    func cuts(days: [ActivityDay], judged: [Int]) -> [Cut] {
        let candidates = judged.filter { $0 + 1 < days.count && !days[$0 + 1].isEmpty }
        guard !candidates.isEmpty else { return [] }
        var random = SeededRandom(seed: seed)
        let asleep = self.asleep, out = self.out
        var cuts: [Cut] = []
        var attempts = 0
        while cuts.count < injections, attempts < injections * 50 {
            attempts += 1
            let index = candidates[Int(random.next() % UInt64(candidates.count))]
            let up = days[index].events.filter { !$0.isBedroom }
            guard let from = up.first?.time, let to = up.last?.time, to > from else { continue }
            let time = from.addingTimeInterval(random.uniform(0...1) * to.timeIntervalSince(from))
            guard !asleep.contains(where: { $0.contains(time) }), !out.contains(where: { $0.contains(time) }) else { continue }
            let lastBefore = events.partitioningIndex { $0.time >= time } - 1
            guard lastBefore >= 0, let resumption = days[index + 1].events.first?.time else { continue }
            cuts.append(Cut(day: index, time: time, lastBefore: lastBefore, resumption: resumption))
        }
        return cuts.sorted { $0.time < $1.time }
    }
}

/// What ``RealHomeEvaluation`` found.
public struct RealHomeReport: Hashable, Sendable, Codable {
    /// An alarm on a judged day (a false one: nobody had an emergency).
    public struct Alarm: Hashable, Sendable, Codable {
        /// When it was raised.
        public var time: Date
        /// What the carers read.
        public var reason: String
        /// Whether the annotations say the resident slept then.
        public var whileAsleep: Bool
        /// Whether the annotations say the resident was out then.
        public var whileOut: Bool
    }

    /// An injected emergency a real-time detector missed: its alarm came before the cut
    /// (a false one, then) or only once the next day's events began, or never.
    public struct Miss: Hashable, Sendable, Codable {
        /// When the resident "collapsed".
        public var cut: Date
        /// When the recording's events begin again (the next day's first).
        public var resumption: Date
        /// When the quiet's alarm would have come, if at all.
        public var alarm: Date?
        /// What it would have said.
        public var reason: String?
    }

    /// One detector's figures.
    public struct Detector: Hashable, Sendable, Codable {
        /// Its name.
        public var name: String
        /// Its alarms on the judged days.
        public var falseAlarms: [Alarm]
        /// Days judged.
        public var judgedDays: Int
        /// Emergencies injected.
        public var injected: Int
        /// Those without an alarm before the next day's first event.
        public var missed: Int
        /// The emergencies it missed, each with its alarm (a real-time detector's; a day detector's are not listed).
        public var misses: [Miss] = []
        /// Mean minutes from the cut to the alarm, over those detected.
        public var meanMinutes: Double?
        /// The same, for cuts between 08:00 and 20:00.
        public var daytimeMeanMinutes: Double?
        /// The same, for the others.
        public var nightMeanMinutes: Double?
        /// The 95th percentile.
        public var p95Minutes: Double?

        /// False alarms per judged day.
        public var falseAlarmsPerDay: Double { judgedDays > 0 ? Double(falseAlarms.count) / Double(judgedDays) : 0 }

        init(name: String, falseAlarms: [Alarm], judgedDays: Int, cuts: [RealHomeEvaluation.Cut], times: [TimeInterval?], calendar: Calendar) {
            self.name = name
            self.falseAlarms = falseAlarms
            self.judgedDays = judgedDays
            injected = cuts.count
            let detected = zip(cuts, times).compactMap { cut, time in time.map { (cut, $0 / 60) } }
            missed = cuts.count - detected.count
            let mean = { (values: [Double]) in values.isEmpty ? nil : values.reduce(0, +) / Double(values.count) }
            let daytime = { (cut: RealHomeEvaluation.Cut) in (8..<20).contains(calendar.component(.hour, from: cut.time)) }
            meanMinutes = mean(detected.map(\.1))
            daytimeMeanMinutes = mean(detected.filter { daytime($0.0) }.map(\.1))
            nightMeanMinutes = mean(detected.filter { !daytime($0.0) }.map(\.1))
            let sorted = detected.map(\.1).sorted()
            p95Minutes = sorted.isEmpty ? nil : sorted[max(0, Int((0.95 * Double(sorted.count)).rounded(.up)) - 1)]
        }
    }

    /// Days with at least one event.
    public var recordedDays: Int
    /// Days without any, between the first and the last (not judged).
    public var gapDays: Int
    /// Recorded days learned from.
    public var trainingDays: Int
    /// Recorded days judged.
    public var judgedDays: Int
    /// Emergencies injected.
    public var injected: Int
    /// The learned quiet's trial on the learning days: the days tried, the alarms it would have raised.
    public struct Trial: Hashable, Sendable, Codable {
        public var days: Int
        public var alarms: [Alarm]
        /// The fixed rule's alarms on those days.
        public var baseline: Int

        /// Whether the learned quiet passed, and is used (see ``SilenceTrial/isPassed``).
        public var isPassed: Bool
    }
    /// How the learned quiet did on the learning days themselves (see ``ProvenSilence``).
    public var trial: Trial
    /// One row per detector.
    public var detectors: [Detector]
}

extension RealHomeReport {
    /// The figures as rows of DETECTION.md's real-home table: `| home | learned on | judged
    /// | detector | false alarms (per day) | asleep | out | missed | mean | daytime | night | p95 |`.
    public func markdownRows(home: String) -> [String] {
        detectors.map { row in
            let cells = [
                home, "\(trainingDays) d", "\(judgedDays) d", row.name,
                "\(row.falseAlarms.count) (\(String(format: "%.3f", row.falseAlarmsPerDay)))",
                "\(row.falseAlarms.filter(\.whileAsleep).count)", "\(row.falseAlarms.filter(\.whileOut).count)",
                "\(row.missed)/\(row.injected)", Self.minutes(row.meanMinutes), Self.minutes(row.daytimeMeanMinutes),
                Self.minutes(row.nightMeanMinutes), Self.minutes(row.p95Minutes),
            ]
            return "| " + cells.joined(separator: " | ") + " |"
        }
    }

    /// `42 min`, `5 h 23`, or `—`.
    public static func minutes(_ value: Double?) -> String {
        guard let value else { return "—" }
        let minutes = Int(value.rounded())
        return minutes < 60 ? "\(minutes) min" : String(format: "%d h %02d", minutes / 60, minutes % 60)
    }
}
