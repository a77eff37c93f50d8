import Foundation
import SADEHealth
import SADEHealthSQLite
import SADETestTiming
import Testing

/// The DocC article's kind of patient: a view over a `Patient` keeping its fields in the attributes.
struct AsthmaPatient {
    var patient: Patient
    init(_ patient: Patient) { self.patient = patient }

    /// The patient's best peak flow, the reference for their action plan.
    var personalBest: Double? {
        get { patient.attributes["personalBestPeakFlow"].flatMap(Double.init) }
        set { patient.attributes["personalBestPeakFlow"] = newValue.map { "\($0)" } }
    }
}

@Suite("Hot spots open for apps: a kind of patient of its own", .timeLimit(.minutes(5)), .timed)
struct AppPatientKindTests {
    @Test("a patient kind's fields and its own typical range survive the store, as the article writes them")
    func asthmaPatient() async throws {
        let litresPerMinute = try HealthUnit.register("L/min", dimension: HealthUnit.Dimension("flow"), aliases: ["l/min"])
        let peakFlow = try QuantityType.register(
            "peakExpiratoryFlow", unit: litresPerMinute, possibleValues: 0...1000,
            vitalSign: (name: "Peak expiratory flow", typicalRange: 400...700),
            fhir: FHIRCoding(system: FHIRSystem.loinc, code: "19935-6", display: "Maximum expiratory gas flow"))
        let store = try SQLiteHealthStore.inMemory()

        var ana = AsthmaPatient(Patient(id: "p-1", name: "Ana"))
        ana.personalBest = 520
        ana.patient.rangeOverrides[peakFlow] = 0.8 * 520...1000  // her own typical range: 80 % of her best
        try await store.save(ana.patient)

        let stored = AsthmaPatient(try #require(try await store.patient("p-1")))
        #expect(stored.personalBest == 520)
        #expect(stored.patient.typicalRange(of: peakFlow) == 416...1000)
        let reading = HealthSample.quantity(peakFlow, 430, patient: "p-1", at: Date())
        let anomalies = await AnomalyDetector().evaluate([reading], patients: ["p-1": stored.patient], at: Date())
        #expect(!anomalies.contains { $0.kind == .outOfRange(peakFlow) }, "430 is low for most, but within Ana's own range")
        let low = HealthSample.quantity(peakFlow, 410, patient: "p-1", at: Date())
        let flagged = await AnomalyDetector().evaluate([low], patients: ["p-1": stored.patient], at: Date())
        #expect(flagged.contains { $0.kind == .outOfRange(peakFlow) }, "410 is within the standard 400–700 but below Ana's 416")
    }
}
