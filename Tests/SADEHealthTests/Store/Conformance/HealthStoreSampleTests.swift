import Foundation
import SADEHealth
@testable import SADEHealthSQLite
import SADETestSupport
import SADETestTiming
import Testing

@Suite("Health store (SQLite and PostgreSQL): saving and querying samples", .timeLimit(.minutes(5)), .timed)
struct HealthStoreSampleTests {
    @Test("a query selects by type, patient and [from, until)", arguments: StoreKind.allCases)
    func queriesByTypePatientAndTime(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            try await store.save(
                [
                    pulse(60, at: 0), pulse(61, at: 10), pulse(62, at: 20), pulse(63, at: 30), pulse(90, "p-2", at: 10),
                    .quantity(.respiratoryRate, 14, patient: "p-1", at: at(10)),
                ], as: .system)
            let all = try await store.samples(SampleQuery(.quantity(.heartRate), patient: "p-1"), as: .system)
            #expect(all.compactMap(\.quantity?.value) == [60, 61, 62, 63])
            let window = try await store.samples(SampleQuery(.quantity(.heartRate), patient: "p-1", from: at(10), until: at(30)), as: .system)
            #expect(window.compactMap(\.quantity?.value) == [61, 62])
            let everyone = try await store.samples(SampleQuery(.quantity(.heartRate), from: at(10), until: at(11)), as: .system)
            #expect(Set(everyone.map(\.patient)) == ["p-1", "p-2"])
            let breaths = try await store.samples(SampleQuery(.quantity(.respiratoryRate)), as: .system)
            #expect(breaths.map(\.type) == [.quantity(.respiratoryRate)])
        }
    }

    @Test("newest first with a limit gives the latest samples", arguments: StoreKind.allCases)
    func ordersAndLimits(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            try await store.save((0..<10).map { pulse(60 + Double($0), at: Double($0)) }.shuffled(), as: .system)
            let latest = try await store.samples(SampleQuery(.quantity(.heartRate), patient: "p-1", limit: 3, order: .newestFirst), as: .system)
            #expect(latest.compactMap(\.quantity?.value) == [69, 68, 67])
            let first = try await store.samples(SampleQuery(.quantity(.heartRate), limit: 2), as: .system)
            #expect(first.compactMap(\.quantity?.value) == [60, 61])
            #expect(try await store.samples(SampleQuery(.quantity(.heartRate), limit: 0), as: .system).isEmpty)
            let negative = await healthError { _ = try await store.samples(SampleQuery(.quantity(.heartRate), limit: -1), as: .system) }
            #expect(negative == .invalidValue(field: "limit", reason: "must not be negative"))
        }
    }

    @Test("every field reads back exactly, the value in the unit it was saved in", arguments: StoreKind.allCases)
    func roundTripsEveryField(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let now = Date()  // an arbitrary Double, not a round number of seconds
            let samples: [HealthSample] = [
                .quantity(
                    .bodyTemperature, 100.9, .degreeFahrenheit, patient: "p-1", at: now, end: now.addingTimeInterval(0.25),
                    device: "thermometer-3", source: "nurse1", metadata: ["site": "oral", "note": "après café ☕"]),
                .quantity(.oxygenSaturation, 0.93, .fraction, patient: "p-1", at: now),
                .category(.consciousnessLevel, ConsciousnessLevel.voice.rawValue, patient: "p-1", at: now, source: "nurse1"),
            ]
            try await store.save(samples, as: .system)
            for sample in samples {
                let read = try await store.samples(SampleQuery(sample.type, patient: "p-1"), as: .system)
                #expect(read == [sample])
            }
        }
    }

    @Test("tabs, line breaks, backslashes and the text '\\N' in a device, source or metadata read back exactly", arguments: StoreKind.allCases)
    func roundTripsAwkwardText(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let sample = HealthSample.quantity(
                .heartRate, 72, patient: "p-1", at: at(0), device: "bed\t4\\left", source: "nurse\nnight\r",
                metadata: ["note": "C:\\path\t\"quoted\"\n", "\\N": "\\.", "empty": ""])
            try await store.save(sample, as: .system)
            #expect(try await store.samples(SampleQuery(.quantity(.heartRate), patient: "p-1"), as: .system) == [sample])
        }
    }

    @Test("a batch with one invalid sample saves nothing", arguments: StoreKind.allCases)
    func invalidSampleRejectsBatch(kind: StoreKind) async throws {
        try await withStore(kind) { store throws in
            var batch = (0..<100).map { pulse(70, at: Double($0)) }
            batch[57] = .quantity(.oxygenSaturation, 104, patient: "p-1", at: at(57))
            let error = await healthError { try await store.save(batch, as: .system) }
            guard case .invalidValue(field: "value", _) = error else {
                Issue.record("expected an invalid value, got \(String(describing: error))")
                return
            }
            #expect(try await store.samples(SampleQuery(.quantity(.heartRate)), as: .system).isEmpty)
        }
    }

    @Test("a UUID stored twice is a duplicate, and the batch that repeats it is rolled back", arguments: StoreKind.allCases)
    func duplicateRollsBack(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let first = pulse(70, at: 0)
            try await store.save(first, as: .system)
            // Valid samples, so the failure happens in SQLite after 50 rows were inserted.
            var batch = (1...100).map { pulse(71, at: Double($0)) }
            batch[50] = first
            let error = await healthError { try await store.save(batch, as: .system) }
            #expect(error == .duplicate("sample \(first.id.uuidString)"))
            #expect(try await store.samples(SampleQuery(.quantity(.heartRate)), as: .system) == [first])
            let twice = await healthError { try await store.save([batch[0], batch[0]], as: .system) }
            #expect(twice == .duplicate("sample \(batch[0].id.uuidString)"))
            #expect(try await store.rowCount("sample") == 1)
        }
    }

    @Test("a correlation reads back with its members, which are samples of their own types", arguments: StoreKind.allCases)
    func correlations(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let pressure = HealthSample.bloodPressure(systolic: 128, diastolic: 84, patient: "p-1", at: at(5), device: "cuff")
            try await store.save([pressure, .quantity(.bloodPressureSystolic, 131, patient: "p-1", at: at(9))], as: .system)
            let correlations = try await store.samples(SampleQuery(.correlation(.bloodPressure), patient: "p-1"), as: .system)
            #expect(correlations == [pressure])
            let systolic = try await store.samples(SampleQuery(.quantity(.bloodPressureSystolic), patient: "p-1"), as: .system)
            #expect(systolic.compactMap(\.quantity?.value) == [128, 131])
            let diastolic = try await store.samples(SampleQuery(.quantity(.bloodPressureDiastolic)), as: .system)
            #expect(diastolic.compactMap(\.quantity?.value) == [84])

            #expect(try await store.delete([pressure.id], as: .system) == 1)
            #expect(try await store.samples(SampleQuery(.correlation(.bloodPressure)), as: .system).isEmpty)
            #expect(try await store.samples(SampleQuery(.quantity(.bloodPressureSystolic)), as: .system).compactMap(\.quantity?.value) == [131])
            #expect(try await store.samples(SampleQuery(.quantity(.bloodPressureDiastolic)), as: .system).isEmpty)
        }
    }

    @Test("an ECG of 30 s at 512 Hz is stored in 4 chunk rows and reads back bit for bit", arguments: StoreKind.allCases)
    func electrocardiogramChunks(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            var generator = SystemRandomNumberGenerator()
            let voltages = (0..<(30 * 512)).map { _ in Double.random(in: -1500...1500, using: &generator) } + [.leastNonzeroMagnitude, -0.0]
            let ecg = Electrocardiogram(samplingFrequency: 512, lead: "II", voltages: voltages, averageHeartRate: 71)
            let sample = HealthSample(patient: "p-1", type: .electrocardiogram, value: .electrocardiogram(ecg), start: t0, end: t0 + 30)
            try await store.save(sample, as: .system)

            let read = try await store.samples(SampleQuery(.electrocardiogram, patient: "p-1"), as: .system)
            #expect(read == [sample])
            guard case .electrocardiogram(let back) = read.first?.value else { Issue.record("no ECG read back"); return }
            #expect(back.voltages.map(\.bitPattern) == voltages.map(\.bitPattern))
            #expect(try await store.rowCount("electrocardiogram_chunk") == 4)  // 15,362 voltages / 4096 per row
            #expect(try await store.rowCount("sample") == 1)

            try await store.delete([sample.id], as: .system)
            #expect(try await store.rowCount("electrocardiogram_chunk") == 0)
        }
    }

    @Test("deleting returns how many existed and skips unknown identifiers", arguments: StoreKind.allCases)
    func deletes(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let samples = (0..<3).map { pulse(70, at: Double($0)) }
            try await store.save(samples, as: .system)
            #expect(try await store.delete([samples[0].id, UUID(), samples[2].id, samples[0].id], as: .system) == 2)
            #expect(try await store.samples(SampleQuery(.quantity(.heartRate)), as: .system) == [samples[1]])
        }
    }

    @Test("a member of a blood pressure is not deleted alone: the reading stays whole; with its correlation it goes", arguments: StoreKind.allCases)
    func deletesNoHalfReading(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let pressure = HealthSample.bloodPressure(systolic: 120, diastolic: 80, patient: "p-1", at: t0)
            try await store.save(pressure, as: .system)
            guard case .correlation(let members) = pressure.value else { Issue.record("not a correlation"); return }
            let agent = Principal.agent("Collector")
            try await store.grant(AccessGrant(agent, .share, types: [.quantity(.bloodPressureSystolic)], patients: ["p-1"]))
            for principal in [agent, .system] {
                let error = await healthError { try await store.delete([members[0].id], as: principal) }
                guard case .invalidValue(field: "ids", let reason)? = error else { Issue.record("\(String(describing: error))"); return }
                #expect(reason.contains(pressure.id.uuidString.lowercased()) && reason.contains("delete the blood-pressure reading instead"))
            }
            #expect(try await store.samples(SampleQuery(.correlation(.bloodPressure), patient: "p-1"), as: .system) == [pressure])
            // Listed beside its correlation, a member is simply deleted with it.
            #expect(try await store.delete([members[0].id, pressure.id], as: .system) == 2)
            #expect(try await store.samples(SampleQuery(.quantity(.bloodPressureDiastolic), patient: "p-1"), as: .system).isEmpty)
        }
    }
}
