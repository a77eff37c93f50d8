import Foundation
import SADEHome
import SADETestSupport
import SADETestTiming
import Testing

@Suite("sade home evaluate and sade home profile (processes)", .serialized, .timeLimit(.minutes(6)), .timed)
struct HomeActivityCommandTests {
    @Test("""
        evaluate --quick prints every detector's figures, finite; its data imports with --plan and profiles day by day, \
        into a data directory and into PostgreSQL alike
        """)
    func evaluateImportProfile() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sade-activity-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let evaluated = try await SadeProcess.run(["home", "evaluate", "--quick", "--json", "--out", "\(directory)/generated"])
        #expect(evaluated.status == 0, "\(evaluated.error)")
        let report = try JSONDecoder().decode(EvaluationReport.self, from: Data(evaluated.output.utf8))
        #expect(report.days == 56 && report.seeds.count == 2)
        #expect(report.emergencies.map(\.detector).contains("fixed 12 h (telecare)"))
        #expect(report.emergencies.count == 4 && report.abnormalDays.count == 2)
        for row in report.emergencies {
            #expect(row.emergencies > 0 && row.ordinaryDays > 0)
            #expect([row.meanMinutes, row.p95Minutes].allSatisfy { $0.map(\.isFinite) ?? (row.missed == row.emergencies) }, "\(row)")
            #expect(row.falseAlarmsPerDay.isFinite && row.falseAlarmsPerDay >= 0)
        }
        for row in report.abnormalDays { #expect((0...1).contains(row.recall) && (0...1).contains(row.precision) && row.abnormalDays > 0, "\(row)") }

        let table = try await SadeProcess.run(["home", "evaluate", "--quick"])
        #expect(table.status == 0 && table.output.contains("Emergencies (resident stops moving)") && table.output.contains("learned quiet"), "\(table.output)")

        let data = "\(directory)/data"
        let imported = try await SadeProcess.run([
            "home", "import", "--data", data, "--plan", "\(directory)/generated/flat.json", "--map", "\(directory)/generated/map.json",
            "\(directory)/generated/data.casas",
        ])
        #expect(imported.status == 0 && imported.output.contains("created flat 1"), "\(imported.output) \(imported.error)")
        let profiled = try await SadeProcess.run(["home", "profile", "--data", data, "--flat", "1", "--json"])
        #expect(profiled.status == 0, "\(profiled.error)")
        let rows = try JSONDecoder().decode([ActivityReport.Row].self, from: Data(profiled.output.utf8))
        #expect(rows.count > 28 && rows.prefix(28).allSatisfy(\.isTraining) && !rows[28].isTraining)
        #expect(rows.allSatisfy { $0.logLikelihood.isFinite && $0.score.isFinite && (0...24).contains($0.activeHours) })
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let truth = try decoder.decode([TruthDay].self, from: Data(contentsOf: URL(fileURLWithPath: "\(directory)/generated/truth.json")))
        #expect(truth.count == 56 && Array(truth.map(\.label).prefix(rows.count)) == rows.map(\.day), "a row per day, from the first activity to the last")

        // The same into the database several nodes share: the same days, the same verdicts.
        let url = try await PostgresTestServer.makeDatabase()
        let shared = try await SadeProcess.run([
            "home", "import", "--database", url, "--plan", "\(directory)/generated/flat.json", "--map", "\(directory)/generated/map.json",
            "\(directory)/generated/data.casas",
        ])
        #expect(shared.status == 0 && shared.output.contains("created flat 1"), "\(shared.output) \(shared.error)")
        let sharedProfile = try await SadeProcess.run(["home", "profile", "--database", url, "--flat", "1", "--json"])
        #expect(sharedProfile.status == 0, "\(sharedProfile.error)")
        let sharedRows = try JSONDecoder().decode([ActivityReport.Row].self, from: Data(sharedProfile.output.utf8))
        #expect(sharedRows.map(\.day) == rows.map(\.day) && sharedRows.map(\.logLikelihood) == rows.map(\.logLikelihood))
        #expect(sharedRows.map(\.thesis) == rows.map(\.thesis) && sharedRows.map(\.routine) == rows.map(\.routine))
        let both = try await SadeProcess.run(["home", "profile", "--data", data, "--database", url, "--flat", "1"])
        #expect(both.status != 0 && both.error.contains("not both"), "\(both.error)")

        let missing = try await SadeProcess.run(["home", "profile", "--data", data, "--flat", "9"])
        #expect(missing.status != 0 && missing.error.contains("no flat with id 9"), "\(missing.error)")
        let nowhere = try await SadeProcess.run(["home", "profile", "--data", "\(directory)/nowhere", "--flat", "1"])
        #expect(nowhere.status != 0 && nowhere.error.contains("no home store at"), "\(nowhere.error)")
        #expect(!FileManager.default.fileExists(atPath: "\(directory)/nowhere"), "profiling creates no store")
        try Data("{\"rooms\": 3}".utf8).write(to: URL(fileURLWithPath: "\(directory)/bad-plan.json"))
        let badPlan = try await SadeProcess.run(["home", "import", "--data", data, "--plan", "\(directory)/bad-plan.json", "\(directory)/generated/data.casas"])
        #expect(badPlan.status != 0 && badPlan.error.contains("not a flat plan"), "\(badPlan.error)")
    }
}
