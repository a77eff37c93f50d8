import ArgumentParser
import Foundation
import SADEHome

/// `sade home evaluate`: the inactivity and day detectors side by side on synthetic
/// residents with ground truth, or on a real home's recording with injected emergencies.
struct HomeEvaluateCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "evaluate",
        abstract: "Score the activity detectors (fixed 12 h rule, the thesis's HMM, ours) on synthetic residents or a real home.",
        discussion: """
            Each seed is a resident of --days days in CASAS format: the first --training days ordinary (the detectors \
            learn from them), then emergencies (the resident stops moving while up), abnormal days (stayed in bed, \
            skipped meals, night wandering) and ordinary ones (visitors, outings, days away). --noise drops that share of \
            the readings and adds as many spurious motions. Emergencies: minutes to the first alarm (missed: none within \
            24 h); false alarms are alarms on ordinary days. --out DIR writes the first seed's data (data.casas, map.json, \
            flat.json, truth.json) for sade home import and sade home profile. \
            With --flat ID and --data DIR (or --database URL): a real home's recording, imported with sade home import. \
            The detectors learn from its first --training recorded days (7, 14 and 21 unless given) and are judged on the \
            rest: every alarm there is a false one (listed with its reason); --inject emergencies are cut into judged days \
            at random waking moments (--seed), every event after the cut removed until the next day's first, and the time \
            from the cut to the first alarm is measured. --activities names the data set's annotations (an Ordóñez \
            *_ADLs.txt): alarms while the resident slept or was out are counted, and no cut falls then.
            """
    )

    @Option(help: "Days per resident (at least --training + 7).")
    var days: Int = 90

    @Option(help: "Days each detector learns from (synthetic: 28; a real home: 7, 14 and 21).")
    var training: Int?

    @Option(help: "A real home: the flat whose recording to judge (with --data or --database).")
    var flat: Int64?

    @OptionGroup var homes: HomeStoreOptions

    @Option(help: "A real home: emergencies to inject.")
    var inject: Int = 100

    @Option(help: "A real home: the data set's annotated activities (an Ordóñez *_ADLs.txt).")
    var activities: String?

    @Option(help: "A real home: keep one activation per sensor in this many seconds (0: all; MavPad's motion sensors report every second or two).")
    var debounce: Double = 0

    @Flag(help: "A real home: print the figures as rows of DETECTION.md's table.")
    var markdown = false

    @Option(help: "Share of readings dropped and of spurious motions added, 0…0.2 (0.05 = 5 %).")
    var noise: Double = 0

    @Option(help: "The first seed.")
    var seed: UInt64 = 1

    @Option(help: "How many residents (seeds seed, seed+1, …).")
    var seeds: Int = 10

    @Flag(help: "A quick run: 56 days, 2 residents.")
    var quick = false

    @Flag(help: "Print the figures as JSON.")
    var json = false

    @Option(help: "Write the first resident's data to this directory.")
    var out: String?

    @Flag(help: "List the first resident's alarms and flagged days by detector, each with the day's truth.")
    var alarms = false

    func validate() throws {
        guard (flat != nil) == homes.isGiven else { throw ValidationError("a real home needs both --flat ID and --data DIR (or --database URL)") }
        guard (0...100_000).contains(inject) else { throw ValidationError("--inject must be 0…100000") }
        guard (0...3600).contains(debounce) else { throw ValidationError("--debounce must be 0…3600 seconds") }
        guard activities == nil || flat != nil else { throw ValidationError("--activities goes with a real home (--flat)") }
        let training = self.training ?? 28
        if flat != nil {
            guard training >= 1 else { throw ValidationError("--training must be at least 1 day") }
            return
        }
        guard training >= 7 else { throw ValidationError("--training must be at least 7 days") }
        guard quick || days >= training + 7, days <= 3650 else { throw ValidationError("--days must be --training + 7 … 3650") }
        guard (0...0.2).contains(noise) else { throw ValidationError("--noise must be 0…0.2") }
        guard (1...1000).contains(seeds) else { throw ValidationError("--seeds must be 1…1000") }
    }

    func run() async throws {
        if let flat { return try await evaluateRealHome(flat) }
        let training = self.training ?? 28
        let days = quick ? 56 : days, seeds = quick ? 2 : seeds
        let started = ContinuousClock.now
        let report = DetectorEvaluation(days: days, trainingDays: training, noise: noise, seeds: (0..<UInt64(seeds)).map { seed &+ $0 }).run()
        let elapsed = ContinuousClock.now - started
        if alarms { listAlarms(SyntheticResident(days: days, trainingDays: training, noise: noise, seed: seed).generate()) }
        if let out { try write(SyntheticResident(days: days, trainingDays: training, noise: noise, seed: seed).generate(), to: out) }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            print(EvaluationTable(report: report).text)
            print("\(seeds) resident(s) × \(days) days in \(elapsed.formatted(.units(allowed: [.seconds, .milliseconds], width: .narrow)))")
        }
    }

    /// The detectors on flat `id`'s recording, for each training length.
    func evaluateRealHome(_ id: Int64) async throws {
        let (store, close) = try await homes.open(mustExist: true)
        let flat: Flat, events: [StateEvent]
        do {
            flat = try await store.flat(id)
            events = try await store.activity(flat: id, from: .distantPast, to: .distantFuture)
        } catch {
            await close()
            throw error
        }
        await close()
        let annotations: [String: [DateInterval]]
        do {
            let read = try activities.map { try OrdonezReader.annotations(try HomeImportCommand.read($0), calendar: flat.calendar) }
            annotations = read?.episodes ?? [:]
            for line in read?.skipped ?? [] { FileHandle.standardError.write(Data("note: \(activities ?? ""): \(line): skipped\n".utf8)) }
        } catch let error as CASASError {
            throw ValidationError("\(activities ?? ""): \(error)")
        }
        let activations = ActivityEvent.debounced(ActivityEvent.activations(events, in: flat), within: debounce)
        var reports: [RealHomeReport] = []
        let recorded = Set(activations.map { flat.calendar.startOfDay(for: $0.time) }).count
        for training in training.map({ [$0] }) ?? [7, 14, 21] {
            guard training < recorded else {
                if !json && !markdown { print("\(flat.name): \(recorded) recorded days, none left to judge after learning on \(training)\n") }
                continue
            }
            let started = ContinuousClock.now
            let report = RealHomeEvaluation(
                events: activations, calendar: flat.calendar, trainingDays: training, injections: inject, seed: seed, annotations: annotations
            ).run()
            reports.append(report)
            if markdown {
                report.markdownRows(home: flat.name).forEach { print($0) }
            } else if !json {
                print(RealHomeTable(flat: flat, report: report, annotated: !annotations.isEmpty).text)
                print("evaluated in \(HomeImportCommand.seconds(ContinuousClock.now - started))\n")
            }
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            encoder.dateEncodingStrategy = .iso8601
            print(String(decoding: try encoder.encode(reports), as: UTF8.self))
        }
    }

    func listAlarms(_ data: SyntheticData) {
        let training = self.training ?? 28
        let events = data.activations, days = data.days
        let learning = events.prefix { $0.time < days[min(training, days.count - 1)].start }
        let detectors: [any SilenceDetector] = [FixedSilence(calendar: data.calendar), LearnedSilence(training: Array(learning), calendar: data.calendar)]
        for detector in detectors {
            print(detector.name)
            for alarm in DetectorEvaluation.alarms(detector, events: events, from: learning.count, end: days.last?.end ?? data.start) {
                let index = days.lastIndex { $0.start < alarm.time } ?? 0
                let truth = data.truth[index]
                let stop = truth.emergency.map { " (stopped \(data.calendar.component(.hour, from: $0)):\(data.calendar.component(.minute, from: $0)))" } ?? ""
                print("  \(alarm.time.formatted(.iso8601))  \(truth.label) \(truth.kind.rawValue)\(stop): \(alarm.reason)")
            }
        }
        let dayDetectors: [any DayDetector] = [ThesisDayDetector(training: Array(days.prefix(training))), RoutineProfile(training: Array(days.prefix(training)))]
        for detector in dayDetectors {
            print(detector.name)
            for (day, truth) in zip(days, data.truth).dropFirst(training) {
                let verdict = detector.judge(day)
                guard !verdict.isNormal || truth.isAbnormal else { continue }
                print("  \(truth.label) \(truth.kind.rawValue): \(verdict.isNormal ? "normal" : "flagged") (\(String(format: "%.1f", verdict.score))) \(verdict.reason ?? "")")
            }
        }
    }

    func write(_ data: SyntheticData, to directory: String) throws {

        let url = URL(fileURLWithPath: directory)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        try Data(data.casas().utf8).write(to: url.appendingPathComponent("data.casas"))
        try encoder.encode(SyntheticFlat.map).write(to: url.appendingPathComponent("map.json"))
        try encoder.encode(SyntheticFlat.plan()).write(to: url.appendingPathComponent("flat.json"))
        try encoder.encode(data.truth).write(to: url.appendingPathComponent("truth.json"))
    }
}

/// A real home's figures as a table, with every false alarm.
struct RealHomeTable {
    let flat: Flat
    let report: RealHomeReport
    let annotated: Bool

    var text: String {
        var lines = [
            "\(flat.name) (flat \(flat.id)): \(report.recordedDays) recorded days (\(report.gapDays) without any event left out), "
                + "learned on \(report.trainingDays), judged on \(report.judgedDays); \(report.injected) emergencies injected",
            "",
            "Detector                              false alarms/day  " + (annotated ? "asleep out  " : "") + "missed    mean      daytime   night     p95",
        ]
        for row in report.detectors {
            let alarms = EvaluationTable.pad("\(row.falseAlarms.count) = \(String(format: "%.3f", row.falseAlarmsPerDay))", 18)
            let annotatedColumns = annotated ? EvaluationTable.pad("\(row.falseAlarms.filter(\.whileAsleep).count)", 7) + EvaluationTable.pad("\(row.falseAlarms.filter(\.whileOut).count)", 5) : ""
            lines.append(
                EvaluationTable.pad(row.name, 38) + alarms + annotatedColumns + EvaluationTable.pad("\(row.missed)/\(row.injected)", 10)
                    + EvaluationTable.pad(EvaluationTable.minutes(row.meanMinutes), 10) + EvaluationTable.pad(EvaluationTable.minutes(row.daytimeMeanMinutes), 10)
                    + EvaluationTable.pad(EvaluationTable.minutes(row.nightMeanMinutes), 10) + EvaluationTable.minutes(row.p95Minutes))
        }
        let trial = report.trial
        lines += [
            "",
            trial.days < LearnedSilence.trialDays
                ? "The learned quiet's trial on the learning days: too few days to try it on (\(trial.days); it takes \(LearnedSilence.trialDays) after the first "
                    + "\(LearnedSilence.trialDays)), so the fixed rule holds"
                : "The learned quiet's trial on the learning days (each judged by what the days before it taught): \(trial.alarms.count) alarm(s) in \(trial.days) day(s), "
                    + "the fixed rule's \(trial.baseline): " + (trial.isPassed ? "passed, so it is used" : "not passed, so the fixed rule holds"),
        ]
        lines += trial.alarms.map { "  \(Self.time($0.time, flat.calendar))\($0.whileAsleep ? " [asleep]" : $0.whileOut ? " [out]" : "")  \($0.reason)" }
        for row in report.detectors where !row.misses.isEmpty && row.name.hasPrefix("learned") {
            lines += ["", "Emergencies \(row.name) missed (cut → the next day's first event: the alarm):"]
            for miss in row.misses {
                let alarm = miss.alarm.map { "\(Self.time($0, flat.calendar))  \(miss.reason ?? "")" } ?? "none"
                lines.append("  \(Self.time(miss.cut, flat.calendar)) → \(Self.time(miss.resumption, flat.calendar)): \(alarm)")
            }
        }
        for row in report.detectors where !row.falseAlarms.isEmpty {
            lines += ["", "False alarms of \(row.name):"]
            for alarm in row.falseAlarms {
                let state = alarm.whileAsleep ? " [asleep]" : alarm.whileOut ? " [out]" : ""
                lines.append("  \(Self.time(alarm.time, flat.calendar))\(state)  \(alarm.reason)")
            }
        }
        return lines.joined(separator: "\n")
    }

    static func time(_ date: Date, _ calendar: Calendar) -> String {
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        return String(format: "%04d-%02d-%02d %02d:%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0, parts.hour ?? 0, parts.minute ?? 0)
    }
}

/// The evaluation's figures as a table.
struct EvaluationTable {
    let report: EvaluationReport

    var text: String {
        var lines = [
            "Synthetic residents: \(report.seeds.count) × \(report.days) days (\(report.trainingDays) to learn), noise \(Self.percent(report.noise))",
            "",
            "Emergencies (resident stops moving)    mean      daytime   p95       missed   false alarms/day",
        ]
        for row in report.emergencies {
            lines.append(
                Self.pad(row.detector, 38) + Self.pad(Self.minutes(row.meanMinutes), 10) + Self.pad(Self.minutes(row.daytimeMeanMinutes), 10)
                    + Self.pad(Self.minutes(row.p95Minutes), 10) + Self.pad("\(row.missed)/\(row.emergencies)", 9)
                    + String(format: "%.3f", row.falseAlarmsPerDay))
        }
        lines += ["", "Abnormal days                          recall    precision false alarms/30 days   caught by kind"]
        for row in report.abnormalDays {
            let kinds = row.byKind.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value[0])/\($0.value[1])" }.joined(separator: ", ")
            lines.append(
                Self.pad(row.detector, 38) + Self.pad(String(format: "%.2f", row.recall), 10) + Self.pad(String(format: "%.2f", row.precision), 10)
                    + Self.pad(String(format: "%.2f", row.falseAlarmsPer30Days), 22) + kinds)
        }
        return lines.joined(separator: "\n")
    }

    static func pad(_ text: String, _ width: Int) -> String {
        let cut = text.count >= width ? String(text.prefix(width - 1)) : text
        return cut + String(repeating: " ", count: width - cut.count)
    }

    static func minutes(_ value: Double?) -> String {
        guard let value else { return "—" }
        let minutes = Int(value.rounded())
        return minutes < 60 ? "\(minutes) min" : String(format: "%dh%02d", minutes / 60, minutes % 60)
    }

    static func percent(_ share: Double) -> String { "\((share * 100).formatted(.number.precision(.fractionLength(0...1)))) %" }
}
