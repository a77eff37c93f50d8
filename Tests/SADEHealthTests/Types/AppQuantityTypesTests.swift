import Foundation
import SADEHealth
import SADEHealthSQLite
import SADETestSupport
import SADETestTiming
import Testing

/// An app's own kinds of quantity and units, registered at start-up. Registration is
/// for the whole process, so each test registers names of its own.
@Suite("Hot spots open for apps: their own units and quantity types", .timeLimit(.minutes(5)), .timed)
struct AppQuantityTypesTests {
    static let flow = HealthUnit.Dimension("flow")

    @Test("an app's unit converts within its dimension and parses by its symbol and aliases")
    func appUnits() throws {
        let perMinute = try HealthUnit.register("L/min", dimension: Self.flow, aliases: ["l/min"])
        let perSecond = try HealthUnit.register("L/s", dimension: Self.flow, scale: 60)
        #expect(try HealthUnit(parsing: "l/min") == perMinute)
        #expect(try perSecond.convert(2, to: perMinute) == 120)
        #expect(throws: HealthError.incompatibleUnits(from: "L/s", to: "kg")) { try perSecond.convert(1, to: .kilogram) }
        let again = try HealthUnit.register("L/min", dimension: Self.flow, aliases: ["l/min"])
        let oneLitrePerMinute = try again.convert(1, to: perSecond)
        #expect(again.dimension == Self.flow && oneLitrePerMinute == 1.0 / 60, "the same definition again")
        #expect(throws: HealthError.self) { try HealthUnit.register("L/min", dimension: Self.flow, scale: 2) }
        #expect(throws: HealthError.self) { try HealthUnit.register("kg", dimension: Self.flow) }
        #expect(throws: HealthError.self) { try HealthUnit.register("L/h", dimension: Self.flow, scale: 0) }
        #expect(throws: HealthError.self) { try HealthUnit.register(" L/h", dimension: Self.flow, scale: 1.0 / 60) }
        #expect(try JSONDecoder().decode([HealthUnit].self, from: JSONEncoder().encode([perSecond])) == [perSecond])
    }

    @Test("""
        an app's quantity type is stored and read back, validated against its possible values, judged by its typical range, \
        and written to FHIR with its own code
        """)
    func appQuantityType() async throws {
        let litresPerMinute = try HealthUnit.register("L/min", dimension: Self.flow, aliases: ["l/min"])
        let litresPerSecond = try HealthUnit.register("L/s", dimension: Self.flow, scale: 60)
        let peakFlow = try QuantityType.register(
            "peakExpiratoryFlow", unit: litresPerMinute, possibleValues: 0...1000,
            vitalSign: (name: "Peak expiratory flow", typicalRange: 400...700),
            fhir: FHIRCoding(system: FHIRSystem.loinc, code: "19935-6", display: "Maximum expiratory gas flow"))
        let found = try #require(QuantityType(rawValue: "peakExpiratoryFlow"))
        #expect(found.canonicalUnit == litresPerMinute && found.possibleValues == 0...1000 && found.aggregation == .discrete)
        #expect(VitalSignType.standard(for: peakFlow) == VitalSignType(peakFlow, name: "Peak expiratory flow", typicalRange: 400...700))
        #expect(QuantityType.allCases.contains(peakFlow))
        #expect(try HealthType(identifier: "peakExpiratoryFlow") == .quantity(peakFlow))

        let store = try SQLiteHealthStore.inMemory()
        let patient = Patient(id: "p-1", name: "Ana")
        try await store.save(patient)
        let sample = HealthSample.quantity(peakFlow, 4.5, litresPerSecond, patient: "p-1", at: at(0))  // 270 L/min
        try await store.save(sample, as: .system)
        let read = try await store.samples(SampleQuery(.quantity(peakFlow), patient: "p-1"), as: .system)
        #expect(read == [sample])
        #expect(try read.first?.quantity?.value(in: litresPerMinute) == 270)
        let impossible = HealthSample.quantity(peakFlow, 2000, patient: "p-1", at: at(1))
        #expect(throws: HealthError.self) { try impossible.validate() }

        let anomalies = await AnomalyDetector().evaluate([sample], patients: ["p-1": patient], at: at(1))
        #expect(anomalies.contains { $0.kind == .outOfRange(peakFlow) }, "270 L/min is below the typical 400–700")

        let bundle = try FHIRExporter().json(patient: patient, samples: [sample])
        #expect(String(decoding: bundle, as: UTF8.self).contains("19935-6"))
        #expect(try FHIRImporter().record(from: bundle).samples.map(\.type) == [.quantity(peakFlow)])
        #expect(throws: HealthError.self) {
            try QuantityType.register("peakExpiratoryFlow", unit: litresPerSecond, possibleValues: 0...20)
        }
        #expect(throws: HealthError.self, "another typical range for a registered type") {
            try QuantityType.register(
                "peakExpiratoryFlow", unit: litresPerMinute, possibleValues: 0...1000, vitalSign: (name: "Peak expiratory flow", typicalRange: 1...2))
        }
    }

    @Test("a type registered without a FHIR coding is written in SADE's code system and read back")
    func uncodedType() throws {
        let minutes = try QuantityType.register("minutesOfExercise", unit: .second, possibleValues: 0...86_400, aggregation: .cumulative)
        let sample = HealthSample.quantity(minutes, 1800, patient: "p-1", at: at(0))
        let bundle = try FHIRExporter().json(patient: Patient(id: "p-1", name: "Ana"), samples: [sample])
        #expect(String(decoding: bundle, as: UTF8.self).contains(FHIRSystem.sade))
        #expect(try FHIRImporter().record(from: bundle).samples == [sample])
    }

    @Test("a unit whose UCUM code is not its symbol is written with the code and read back from it")
    func ucumCode() throws {
        let perDecilitre = try HealthUnit.register("mg/dL", dimension: HealthUnit.Dimension("massConcentration"), ucum: "mg/dL{glucose}")
        let glucose = try QuantityType.register("bloodGlucoseLevel", unit: perDecilitre, possibleValues: 0...2000)
        #expect(perDecilitre.ucumCode == "mg/dL{glucose}")
        #expect(try HealthUnit(parsing: "mg/dL{glucose}") == perDecilitre)
        let sample = HealthSample.quantity(glucose, 95, patient: "p-1", at: at(0))
        let bundle = try FHIRExporter().json(patient: Patient(id: "p-1", name: "Ana"), samples: [sample])
        #expect(String(decoding: bundle, as: UTF8.self).contains("mg/dL{glucose}"))
        #expect(try FHIRImporter().record(from: bundle).samples == [sample])
    }

    @Test("identifiers are letters and digits, and not another kind's")
    func badIdentifiers() throws {
        #expect(throws: HealthError.self) { try QuantityType.register("peak flow", unit: .count, possibleValues: 0...1) }
        #expect(throws: HealthError.self) { try QuantityType.register("", unit: .count, possibleValues: 0...1) }
        #expect(throws: HealthError.self) { try QuantityType.register("bloodPressure", unit: .count, possibleValues: 0...1) }
        #expect(throws: HealthError.self) { try QuantityType.register("heartRate", unit: .count, possibleValues: 0...1) }
        #expect(throws: HealthError.self) { try QuantityType.register("wobble", unit: .count, possibleValues: 0...Double.infinity) }
        #expect(throws: HealthError.self, "SADE's heart rate keeps its typical range") {
            try QuantityType.register("heartRate", unit: .countPerMinute, possibleValues: 0...350, vitalSign: (name: "Heart rate", typicalRange: 40...100))
        }
        #expect(throws: HealthError.self) {
            try QuantityType.register("tremor", unit: .count, possibleValues: 0...10, vitalSign: (name: "Tremor", typicalRange: 0...20))
        }
        let heartRate = try QuantityType.register("heartRate", unit: .countPerMinute, possibleValues: 0...350)
        #expect(heartRate.canonicalUnit == .countPerMinute && heartRate.possibleValues == 0...350)
        #expect(VitalSignType.standard(for: .heartRate)?.typicalRange == 51...90)
    }
}
