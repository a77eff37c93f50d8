import Foundation
import SADEHealth
import SADETestTiming
import Testing

@Suite("FHIR export: a patient's samples as a Bundle of vital-signs Observations", .timeLimit(.minutes(5)), .timed)
struct FHIRExportTests {
    typealias F = FHIRFixtures

    @Test("the bundle is a collection: the Patient first, then one Observation per sample, each entry named by urn:uuid")
    func bundleShape() throws {
        let bundle = try F.exported()
        #expect(bundle.resourceType == "Bundle")
        #expect(bundle.type == "collection")
        let entries = try #require(bundle.entry)
        #expect(entries.count == 1 + F.samples.count)
        guard case .patient = entries[0].resource else { Issue.record("entry 0 is not the Patient"); return }
        #expect(entries[0].fullUrl == FHIRExporter.fullUrl(of: "p-1"))
        #expect(entries[0].fullUrl?.hasPrefix("urn:uuid:") == true)
        #expect(UUID(uuidString: String(entries[0].fullUrl?.dropFirst(9) ?? "")) != nil)
        #expect(FHIRExporter.fullUrl(of: "p-1") != FHIRExporter.fullUrl(of: "p-2"))
        for (entry, sample) in zip(entries.dropFirst(), F.samples) {
            #expect(entry.fullUrl == "urn:uuid:" + sample.id.uuidString.lowercased())
            guard case .observation(let observation) = entry.resource else { Issue.record("not an Observation: \(entry)"); continue }
            #expect(observation.status == "final")
            #expect(observation.subject?.reference == entries[0].fullUrl)
            #expect(observation.subject?.display == "Ana Souza")
            #expect(observation.id == sample.id.uuidString.lowercased())
            #expect(observation.identifier == [FHIRIdentifier(system: "urn:ietf:rfc:3986", value: "urn:uuid:" + sample.id.uuidString.lowercased())])
        }
    }

    @Test("the same data gives the same bytes, with FHIR element names in the JSON")
    func deterministicJSON() throws {
        let first = try FHIRExporter().json(patient: F.patient, samples: F.samples)
        let second = try FHIRExporter().json(patient: F.patient, samples: F.samples)
        #expect(first == second)
        let text = String(decoding: first, as: UTF8.self)
        for name in ["\"resourceType\" : \"Bundle\"", "\"effectiveDateTime\"", "\"effectivePeriod\"", "\"valueQuantity\"", "\"valueSampledData\"",
            "\"valueCodeableConcept\"", "\"valueBoolean\"", "\"component\"", "\"interpretation\"", "\"fullUrl\" : \"urn:uuid:"]
        {
            #expect(text.contains(name), "missing \(name)")
        }
        #expect(!text.contains("\\/"), "slashes escaped")
    }

    @Test("the Patient: id, identifier, name, gender, birthDate and SADE's extensions")
    func patientResource() throws {
        let bundle = try F.exported()
        guard case .patient(let patient) = bundle.entry?.first?.resource else { Issue.record("no patient"); return }
        #expect(patient.id == "p-1")
        #expect(patient.identifier == [FHIRIdentifier(system: "urn:sade:patient", value: "p-1")])
        #expect(patient.name?.first?.text == "Ana Souza")
        #expect(patient.gender == "female")
        #expect(patient.birthDate == "1950-04-02")
        let urls = (patient.extension ?? []).map(\.url)
        #expect(urls == [
            "urn:sade:fhir:extension:blood-type", "urn:sade:fhir:extension:typical-range", "urn:sade:fhir:extension:spo2-scale-2",
            "urn:sade:fhir:extension:attribute", "urn:sade:fhir:extension:attribute",
        ])
        #expect(patient.extension?.first?.valueCode == "aPositive")
    }

    @Test("a patient identifier that is not a FHIR id is kept in the identifier only")
    func patientIdNotAFHIRId() throws {
        let odd = Patient(id: "ward 3/bed 2", name: "")
        let bundle = try F.exported(odd, [])
        guard case .patient(let patient) = bundle.entry?.first?.resource else { Issue.record("no patient"); return }
        #expect(patient.id == nil)
        #expect(patient.identifier?.first?.value == "ward 3/bed 2")
        #expect(patient.name == nil)
        #expect(patient.gender == nil)
    }

    @Test("heart rate: LOINC 8867-4, vital-signs, /min in UCUM, effectiveDateTime, device, source and metadata")
    func heartRate() throws {
        let observation = try #require(try F.observation(F.samples[0].id, in: F.exported()))
        #expect(F.codes(observation.code) == ["\(F.loinc)|8867-4"])
        #expect(observation.code?.text == "Heart rate")
        #expect(F.categories(observation) == ["\(F.category)|vital-signs"])
        #expect(observation.meta?.profile == ["http://hl7.org/fhir/StructureDefinition/heartrate"])
        #expect(observation.valueQuantity == FHIRQuantity(value: 72, unit: "count/min", system: F.ucum, code: "/min"))
        #expect(observation.effectiveDateTime == F.t0Text)
        #expect(observation.effectivePeriod == nil)
        #expect(observation.interpretation == nil)
        #expect(observation.device == FHIRReference(display: "watch-1"))
        let extensions = try #require(observation.extension)
        #expect(extensions.first { $0.url == "urn:sade:fhir:extension:source" }?.valueString == "CollectorAgent")
        let metadata = try #require(extensions.first { $0.url == "urn:sade:fhir:extension:metadata" })
        #expect(metadata.extension == [FHIRExtension(url: "key", valueString: "posture"), FHIRExtension(url: "value", valueString: "sitting")])
    }

    @Test("respiratory rate 9279-1, weight 29463-7, HRV 80404-7, lone systolic 8480-6 and diastolic 8462-4, each with its UCUM unit")
    func otherQuantities() throws {
        let bundle = try F.exported()
        let expected: [(Int, String, String, Double, String)] = [
            (2, "9279-1", "vital-signs", 18, "/min"), (7, "29463-7", "vital-signs", 70.5, "kg"), (8, "80404-7", "vital-signs", 45, "ms"),
            (12, "8480-6", "vital-signs", 100, "mm[Hg]"), (13, "8462-4", "vital-signs", 60, "mm[Hg]"),
        ]
        for (n, code, category, value, unit) in expected {
            let observation = try #require(F.observation(F.id(n), in: bundle))
            #expect(F.codes(observation.code) == ["\(F.loinc)|\(code)"])
            #expect(F.categories(observation) == ["\(F.category)|\(category)"])
            #expect(observation.valueQuantity?.value == value)
            #expect(observation.valueQuantity?.code == unit)
            #expect(observation.valueQuantity?.system == F.ucum)
            #expect(observation.effectiveDateTime != nil)
        }
    }

    @Test("SpO2 carries both LOINC codes, 2708-6 and 59408-5, in %")
    func oxygenSaturation() throws {
        let observation = try #require(try F.observation(F.id(3), in: F.exported()))
        #expect(F.codes(observation.code) == ["\(F.loinc)|2708-6", "\(F.loinc)|59408-5"])
        #expect(observation.valueQuantity == FHIRQuantity(value: 93, unit: "%", system: F.ucum, code: "%"))
        #expect(observation.meta?.profile == ["http://hl7.org/fhir/StructureDefinition/oxygensat"])
    }

    @Test("body temperature 8310-5 keeps °F as [degF]; a weight in lb as [lb_av]")
    func temperatureInFahrenheit() throws {
        let observation = try #require(try F.observation(F.id(4), in: F.exported()))
        #expect(F.codes(observation.code) == ["\(F.loinc)|8310-5"])
        #expect(observation.valueQuantity == FHIRQuantity(value: 101.3, unit: "degF", system: F.ucum, code: "[degF]"))
        // 101.3 °F is 38.5 °C: above 36.1–38.0, not above 38.95.
        #expect(F.interpretation(observation.interpretation) == ["\(F.v3)|H"])
        let weight = HealthSample.quantity(.bodyMass, 154, .pound, patient: "p-1", at: F.t0)
        #expect(try F.observation(for: weight)?.valueQuantity?.code == "[lb_av]")
    }

    @Test("units the vital-signs profile does not allow are converted to the canonical one (Hz → /min, kPa → mm[Hg])")
    func unitsConverted() throws {
        let rate = HealthSample.quantity(.heartRate, 1.2, .hertz, patient: "p-1", at: F.t0)
        let quantity = try #require(try F.observation(for: rate)?.valueQuantity)
        #expect(quantity.code == "/min")
        #expect(abs((quantity.value ?? 0) - 72) < 1e-9)
        let pressure = HealthSample.quantity(.bloodPressureSystolic, 16, .kilopascal, patient: "p-1", at: F.t0)
        #expect(try F.observation(for: pressure)?.valueQuantity?.code == "mm[Hg]")
    }

    @Test("blood pressure: panel 85354-9, no value of its own, components 8480-6 and 8462-4 in mm[Hg] with the members' UUIDs")
    func bloodPressure() throws {
        let observation = try #require(try F.observation(F.id(5), in: F.exported()))
        #expect(F.codes(observation.code) == ["\(F.loinc)|85354-9"])
        #expect(F.categories(observation) == ["\(F.category)|vital-signs"])
        #expect(observation.meta?.profile == ["http://hl7.org/fhir/StructureDefinition/bp"])
        #expect(observation.valueQuantity == nil)
        let components = try #require(observation.component)
        #expect(components.count == 2)
        #expect(F.codes(components[0].code) == ["\(F.loinc)|8480-6"])
        #expect(components[0].valueQuantity == FHIRQuantity(value: 150, unit: "mmHg", system: F.ucum, code: "mm[Hg]"))
        #expect(components[0].id == F.id(105).uuidString.lowercased())
        #expect(components[0].interpretation == nil)
        #expect(F.codes(components[1].code) == ["\(F.loinc)|8462-4"])
        #expect(components[1].valueQuantity?.value == 95)
        #expect(components[1].id == F.id(205).uuidString.lowercased())
        #expect(F.interpretation(components[1].interpretation) == ["\(F.v3)|H"])  // above 50–90
        #expect(observation.device?.display == "cuff-3")
    }

    @Test("steps over an hour: 55423-8, category activity, {steps}, effectivePeriod and no effectiveDateTime")
    func steps() throws {
        let observation = try #require(try F.observation(F.id(6), in: F.exported()))
        #expect(F.codes(observation.code) == ["\(F.loinc)|55423-8"])
        #expect(F.categories(observation) == ["\(F.category)|activity"])
        #expect(observation.valueQuantity == FHIRQuantity(value: 1234, unit: "count", system: F.ucum, code: "{steps}"))
        #expect(observation.effectiveDateTime == nil)
        #expect(observation.effectivePeriod == FHIRPeriod(start: F.t0Text, end: "2023-11-14T23:13:20.250Z"))
        #expect(observation.interpretation == nil)
    }

    @Test("consciousness: SNOMED ACVPU code with the level as a SNOMED value; supplemental oxygen as valueBoolean")
    func categories() throws {
        let bundle = try F.exported()
        let consciousness = try #require(F.observation(F.id(9), in: bundle))
        #expect(F.codes(consciousness.code) == ["http://snomed.info/sct|1104441000000107"])
        #expect(F.categories(consciousness) == ["\(F.category)|survey"])
        #expect(F.codes(consciousness.valueCodeableConcept) == ["http://snomed.info/sct|300202002"])
        let oxygen = try #require(F.observation(F.id(10), in: bundle))
        #expect(F.codes(oxygen.code) == ["http://snomed.info/sct|57485005"])
        #expect(F.categories(oxygen) == ["\(F.category)|therapy"])
        #expect(oxygen.valueBoolean == true)
        #expect(oxygen.valueQuantity == nil)
        let air = HealthSample.category(.supplementalOxygen, 0, patient: "p-1", at: F.t0)
        #expect(try F.observation(for: air)?.valueBoolean == false)
    }

    @Test("ECG: 11524-6 with valueSampledData — origin 0 uV, period in ms, one dimension, the voltages as decimals")
    func electrocardiogram() throws {
        let observation = try #require(try F.observation(F.id(11), in: F.exported()))
        #expect(F.codes(observation.code) == ["\(F.loinc)|11524-6"])
        #expect(F.categories(observation) == ["\(F.category)|procedure"])
        let data = try #require(observation.valueSampledData)
        #expect(data.origin == FHIRQuantity(value: 0, unit: "µV", system: F.ucum, code: "uV"))
        #expect(data.period == 1000.0 / 512)
        #expect(data.dimensions == 1)
        #expect(data.factor == nil)
        #expect(data.data == "12.5 -3 0.001 1e-05 1234.5678")
        #expect(observation.extension?.first { $0.url == "urn:sade:fhir:extension:ecg-lead" }?.valueString == "II")
        let rate = try #require(observation.component?.first)
        #expect(F.codes(rate.code) == ["\(F.loinc)|8867-4"])
        #expect(rate.valueQuantity?.value == 64)
        #expect(observation.effectivePeriod == FHIRPeriod(start: "2023-11-14T22:13:29.250Z", end: "2023-11-14T22:13:29.750Z"))
    }

    @Test("interpretation H/L/HH/LL from the patient's typical range, overrides included")
    func interpretation() throws {
        let cases: [(QuantityType, Double, String?)] = [
            (.heartRate, 72, nil), (.heartRate, 100, "H"), (.heartRate, 120, "HH"), (.heartRate, 45, "L"), (.heartRate, 20, "LL"),
            (.respiratoryRate, 24, "H"), (.respiratoryRate, 25, "HH"), (.respiratoryRate, 8, "L"), (.respiratoryRate, 7, "LL"),
            (.oxygenSaturation, 90, nil),  // the override 88–92
            (.oxygenSaturation, 93, "H"), (.oxygenSaturation, 95, "HH"), (.oxygenSaturation, 86, "L"), (.oxygenSaturation, 85, "LL"),
            (.bodyTemperature, 39.5, "HH"), (.stepCount, 100_000, nil),
        ]
        for (type, value, code) in cases {
            let sample = HealthSample.quantity(type, value, patient: "p-1", at: F.t0)
            let observation = try #require(try F.observation(for: sample))
            #expect(F.interpretation(observation.interpretation) == (code.map { ["\(F.v3)|\($0)"] } ?? []), "\(type) \(value)")
        }
        let standard = Patient(id: "p-1", name: "Standard")
        let spo2 = HealthSample.quantity(.oxygenSaturation, 90, patient: "p-1", at: F.t0)
        #expect(F.interpretation(try F.observation(for: spo2, patient: standard)?.interpretation) == ["\(F.v3)|LL"])  // below 96 − 2
    }

    @Test("every SADE health type has its own code, and the table reads each code back as its type")
    func everyTypeCoded() {
        let types = HealthType.all  // once: other tests may register types meanwhile
        let codes = types.map { FHIRObservationCode.of($0) }
        #expect(codes.map(\.type) == types)
        #expect(Set(codes.map { F.codes($0.code) }).count == types.count)
        for code in codes { #expect(FHIRObservationCode.type(of: code.code) == code.type) }
    }

    @Test("export refuses a sample of another patient and an impossible sample")
    func exportRefuses() {
        let other = HealthSample.quantity(.heartRate, 72, patient: "p-2", at: F.t0)
        #expect(throws: HealthError.self) { try FHIRExporter().bundle(patient: F.patient, samples: [other]) }
        let impossible = HealthSample.quantity(.oxygenSaturation, 120, patient: "p-1", at: F.t0)
        #expect(throws: HealthError.invalidValue(field: "value", reason: "oxygenSaturation of 120.0 % is outside 0.0–100.0 %")) {
            try FHIRExporter().bundle(patient: F.patient, samples: [impossible])
        }
    }

    /// Writing such a date trapped on an integer overflow.
    @Test("export refuses a date of birth or a sample date outside the years 0001–9999, naming the field")
    func exportRefusesImpossibleDates() {
        var patient = F.patient
        patient.dateOfBirth = Date(timeIntervalSince1970: 1e17)
        #expect(throws: HealthError.invalidValue(field: "dateOfBirth", reason: "is not a date in the years 0001–9999")) {
            try FHIRExporter().json(patient: patient, samples: [])
        }
        var far = HealthSample.quantity(.heartRate, 70, patient: "p-1", at: F.t0)
        far.start = Date(timeIntervalSince1970: 1e17)
        far.end = far.start
        #expect(throws: HealthError.self) { try FHIRExporter().json(patient: F.patient, samples: [far]) }
        do {
            _ = try FHIRExporter().json(patient: F.patient, samples: [far])
        } catch {
            guard case .invalidValue(field: "start", _) = error else { Issue.record("\(error)"); return }
        }
    }
}
