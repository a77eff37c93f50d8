import ArgumentParser
import Foundation
import SADEHome
import SADEHomeSQLite

/// `sade home profile`: a flat's days as each activity detector sees them.
struct HomeProfileCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile",
        abstract: "A flat's activity day by day: the thesis's HMM log-likelihood and band, and each detector's verdict.",
        discussion: """
            Reads the flat's resident activity from DIR/home.sqlite, or from --database (e.g. after sade home import). The detectors learn from \
            the first --training days (all of them if fewer) and judge every day: the thesis's HMM (its forward \
            log-likelihood, the day's score along the best day's path and the normal band), the routine profile, and the \
            alarms the learned-quiet detector would have raised that day.
            """
    )

    @OptionGroup var homes: HomeStoreOptions

    @Option(help: "The flat's id.")
    var flat: Int64

    @Option(help: "Days the detectors learn from.")
    var training: Int = 28

    @Flag(help: "Print the days as JSON.")
    var json = false

    func validate() throws {
        guard training >= 2 else { throw ValidationError("--training must be at least 2 days") }
        guard homes.isGiven else { throw ValidationError("give --data DIR or --database URL") }
    }

    func run() async throws {
        let (store, close) = try await homes.open(mustExist: true)
        let flat: Flat, activity: [StateEvent]
        do {
            flat = try await store.flat(self.flat)
            activity = try await store.activity(flat: flat.id, from: .distantPast, to: .distantFuture)
        } catch {
            await close()
            throw error
        }
        await close()
        let events = ActivityEvent.activations(activity, in: flat)
        guard let first = events.first, let last = events.last else { throw ValidationError("flat \(flat.id) has no resident activity to profile") }
        let rows = ActivityReport(events: events, from: first.time, to: last.time, calendar: flat.calendar, trainingDays: training).rows
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(rows), as: UTF8.self))
            return
        }
        print("day         active h  log-lik  score   band             thesis    routine   quiet alarms  why")
        for row in rows {
            let band = row.band.map { String(format: "%.1f … %.1f", $0[0], $0[1]) } ?? "—"
            let why = [row.routineReason, row.firstQuietAlarm].compactMap { $0 }.joined(separator: " | ")
            print(
                EvaluationTable.pad(row.day + (row.isTraining ? "*" : ""), 12) + EvaluationTable.pad("\(row.activeHours)", 10)
                    + EvaluationTable.pad(String(format: "%.1f", row.logLikelihood), 9) + EvaluationTable.pad(String(format: "%.1f", row.score), 8)
                    + EvaluationTable.pad(band, 17) + EvaluationTable.pad(row.thesis, 10) + EvaluationTable.pad(row.routine, 10)
                    + EvaluationTable.pad("\(row.quietAlarms)", 14) + why)
        }
        print("* a day the detectors learned from")
    }
}
