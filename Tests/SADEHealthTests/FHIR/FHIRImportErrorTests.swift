import Foundation
import SADEHealth
import SADETestTiming
import Testing

@Suite("FHIR import refuses a malformed Bundle, naming the entry and what is wrong", .timeLimit(.minutes(5)), .timed)
struct FHIRImportErrorTests {
    typealias F = FHIRFixtures

    /// The fixture bundle with the observation of sample `n` changed, imported; the error it gives.
    static func failure(changing n: Int, _ change: (inout FHIRObservation) -> Void) throws -> FHIRImportError? {
        var bundle = try F.exported()
        var entries = try #require(bundle.entry)
        let index = try #require(entries.firstIndex { $0.resource?.id == F.id(n).uuidString.lowercased() })
        guard case .observation(var observation) = entries[index].resource else { return nil }
        change(&observation)
        entries[index].resource = .observation(observation)
        bundle.entry = entries
        return failure(try FHIRExporter.json(bundle))
    }

    static func failure(_ json: Data) -> FHIRImportError? {
        do {
            _ = try FHIRImporter().record(from: json)
            return nil
        } catch {
            return error
        }
    }

    static func failure(_ json: String) -> FHIRImportError? { failure(Data(json.utf8)) }

    /// The entry of sample `n` as an error names it: its position and its urn:uuid.
    static func entry(_ n: Int) -> FHIRImportError.Entry {
        let index = F.samples.firstIndex { $0.id == F.id(n) }! + 1
        let id = F.id(n).uuidString.lowercased()
        return FHIRImportError.Entry(index: index, fullUrl: "urn:uuid:" + id, id: id)
    }

    @Test("an unknown LOINC code")
    func unknownCode() throws {
        let error = try Self.failure(changing: 1) { $0.code = FHIRCodeableConcept(coding: [FHIRCoding(system: "http://loinc.org", code: "1234-5")]) }
        #expect(error == FHIRImportError(entry: Self.entry(1), problem: .unknownCode(["http://loinc.org|1234-5"])))
        #expect(error?.description.hasPrefix("entry 1 (urn:uuid:00000000-0000-4000-8000-000000000001): unknown code http://loinc.org|1234-5") == true)
    }

    @Test("a heart rate without valueQuantity")
    func missingValue() throws {
        let error = try Self.failure(changing: 1) { $0.valueQuantity = nil }
        #expect(error == FHIRImportError(entry: Self.entry(1), problem: .missingElement("valueQuantity")))
        #expect(error?.description == "entry 1 (urn:uuid:00000000-0000-4000-8000-000000000001): valueQuantity is missing")
    }

    @Test("a unit SADE does not know, one of the wrong dimension, and one outside UCUM")
    func badUnits() throws {
        let unknown = try Self.failure(changing: 2) { $0.valueQuantity?.code = "beats" }
        #expect(unknown == FHIRImportError(entry: Self.entry(2), problem: .badUnit(element: "valueQuantity", unit: "beats", reason: "is not a UCUM unit SADE knows")))
        let wrongDimension = try Self.failure(changing: 2) { $0.valueQuantity?.code = "kg" }
        #expect(wrongDimension?.entry == Self.entry(2))
        #expect(wrongDimension?.description.hasSuffix("valueQuantity: unit 'kg' is not a unit of respiratoryRate") == true)
        let notUCUM = try Self.failure(changing: 2) { $0.valueQuantity?.system = "http://snomed.info/sct" }
        guard case .badUnit(_, "/min", _)? = notUCUM?.problem else { Issue.record("\(String(describing: notUCUM))"); return }
    }

    @Test("a date that is not a dateTime with time and zone: an impossible month, a date without time, a bad period end")
    func badDates() throws {
        let month = try Self.failure(changing: 1) { $0.effectiveDateTime = "2024-13-01T00:00:00Z" }
        #expect(month == FHIRImportError(entry: Self.entry(1), problem: .badDate(element: "effectiveDateTime", value: "2024-13-01T00:00:00Z")))
        let dayOnly = try Self.failure(changing: 3) { $0.effectiveDateTime = "2024-03-01" }
        #expect(dayOnly?.problem == .badDate(element: "effectiveDateTime", value: "2024-03-01"))
        let end = try Self.failure(changing: 6) { $0.effectivePeriod?.end = "soon" }
        #expect(end == FHIRImportError(entry: Self.entry(6), problem: .badDate(element: "effectivePeriod.end", value: "soon")))
        let none = try Self.failure(changing: 6) { $0.effectivePeriod = nil }
        #expect(none?.problem == .missingElement("effective[x]"))
    }

    @Test("a resource that is neither Patient nor Observation")
    func wrongResourceType() {
        let error = Self.failure("""
            {"resourceType": "Bundle", "type": "collection", "entry": [
              {"fullUrl": "urn:uuid:11111111-1111-4111-8111-111111111111", "resource": {"resourceType": "Patient", "id": "p-1"}},
              {"fullUrl": "urn:uuid:22222222-2222-4222-8222-222222222222", "resource": {"resourceType": "Condition", "id": "c1"}}]}
            """)
        #expect(error == FHIRImportError(entry: .init(index: 1, fullUrl: "urn:uuid:22222222-2222-4222-8222-222222222222", id: "c1"), problem: .wrongResourceType("Condition")))
    }

    @Test("values HealthSample.validate() refuses: SpO2 of 120 %, a period ending before it starts")
    func invalidSamples() throws {
        let spo2 = try Self.failure(changing: 3) { $0.valueQuantity?.value = 120 }
        #expect(spo2?.entry == Self.entry(3))
        guard case .invalidSample(.invalidValue(field: "value", _))? = spo2?.problem else { Issue.record("\(String(describing: spo2))"); return }
        let backwards = try Self.failure(changing: 6) { $0.effectivePeriod = FHIRPeriod(start: "2024-03-01T10:00:00Z", end: "2024-03-01T09:00:00Z") }
        guard case .invalidSample(.invalidValue(field: "end", _))? = backwards?.problem else { Issue.record("\(String(describing: backwards))"); return }
        #expect(backwards?.entry == Self.entry(6))
    }

    @Test("JSON of the wrong shape inside an entry names the entry and the path")
    func wrongJSONShape() throws {
        var text = String(decoding: try FHIRExporter().json(patient: F.patient, samples: F.samples), as: UTF8.self)
        let range = try #require(text.range(of: "\"value\" : 1234\n"))  // the steps
        text.replaceSubrange(range, with: "\"value\" : \"many\"\n")
        let error = Self.failure(text)
        #expect(error == FHIRImportError(entry: Self.entry(6), problem: .malformedJSON(path: "resource.valueQuantity.value", reason: "expected a number")))
        let missingType = Self.failure(#"{"resourceType": "Bundle", "type": "collection", "entry": [{"fullUrl": "urn:x", "resource": {"id": "a"}}]}"#)
        #expect(missingType == FHIRImportError(entry: .init(index: 0, fullUrl: "urn:x", id: "a"), problem: .malformedJSON(path: "resource.resourceType", reason: "is missing")))
    }

    @Test("a subject that is not the bundle's Patient")
    func badReference() throws {
        let error = try Self.failure(changing: 7) { $0.subject = FHIRReference(reference: "Patient/someone-else") }
        #expect(error == FHIRImportError(entry: Self.entry(7), problem: .badReference("Patient/someone-else")))
        let none = try Self.failure(changing: 7) { $0.subject = nil }
        #expect(none?.problem == .missingElement("subject.reference"))
    }

    @Test("a blood-pressure panel without its diastolic component")
    func missingComponent() throws {
        let error = try Self.failure(changing: 5) { $0.component?.removeLast() }
        #expect(error == FHIRImportError(entry: Self.entry(5), problem: .missingElement("component 8462-4 (bloodPressureDiastolic)")))
    }

    @Test("ECG sampled data with an error mark, two dimensions, a unit that is not a voltage")
    func badSampledData() throws {
        let mark = try Self.failure(changing: 11) { $0.valueSampledData?.data = "1 2 E 4" }
        #expect(mark == FHIRImportError(entry: Self.entry(11), problem: .badValue(element: "valueSampledData.data", reason: "'E' at position 2 is not a number")))
        let dimensions = try Self.failure(changing: 11) { $0.valueSampledData?.dimensions = 2 }
        guard case .badValue("valueSampledData.dimensions", _)? = dimensions?.problem else { Issue.record("\(String(describing: dimensions))"); return }
        let unit = try Self.failure(changing: 11) { $0.valueSampledData?.origin.code = "mm[Hg]" }
        guard case .badUnit("valueSampledData.origin", "mm[Hg]", _)? = unit?.problem else { Issue.record("\(String(describing: unit))"); return }
    }

    @Test("a status that carries no result, a UUID given twice, an identifier that is no UUID")
    func statusAndIdentity() throws {
        let status = try Self.failure(changing: 8) { $0.status = "entered-in-error" }
        #expect(status == FHIRImportError(entry: Self.entry(8), problem: .unsupportedStatus("entered-in-error")))
        let twice = try Self.failure(changing: 8) {
            $0.id = F.id(7).uuidString.lowercased()
            $0.identifier = [FHIRIdentifier(system: "urn:ietf:rfc:3986", value: "urn:uuid:" + F.id(7).uuidString.lowercased())]
        }
        #expect(twice?.entry?.index == Self.entry(8).index)
        #expect(twice?.problem == .duplicateSample(F.id(7)))
        var bundle = try F.exported(F.patient, [F.samples[0]])
        guard case .observation(var observation) = bundle.entry?[1].resource else { Issue.record("no observation"); return }
        observation.id = "hr-1"
        observation.identifier = nil
        bundle.entry?[1] = FHIRBundle.Entry(fullUrl: "https://example.org/Observation/hr-1", resource: .observation(observation))
        let noUUID = Self.failure(try FHIRExporter.json(bundle))
        #expect(noUUID?.entry == FHIRImportError.Entry(index: 1, fullUrl: "https://example.org/Observation/hr-1", id: "hr-1"))
        guard case .badIdentifier? = noUUID?.problem else { Issue.record("\(String(describing: noUUID))"); return }
    }

    @Test("bundle-level faults: not JSON, not a Bundle, a history bundle, no Patient, two Patients, a bad gender")
    func bundleLevel() throws {
        guard case .malformedJSON(path: "", _)? = Self.failure("{ not json")?.problem else { Issue.record("not JSON accepted"); return }
        #expect(Self.failure(#"{"resourceType": "Patient", "id": "p"}"#) == FHIRImportError(entry: nil, problem: .notABundle(resourceType: "Patient")))
        #expect(Self.failure(#"{"resourceType": "Bundle", "type": "history"}"#)?.problem == .unsupportedBundleType("history"))
        #expect(Self.failure(#"{"resourceType": "Bundle", "type": "collection", "entry": []}"#) == FHIRImportError(entry: nil, problem: .noPatient))
        let two = Self.failure("""
            {"resourceType": "Bundle", "type": "collection", "entry": [
              {"fullUrl": "urn:a", "resource": {"resourceType": "Patient", "id": "a"}},
              {"fullUrl": "urn:b", "resource": {"resourceType": "Patient", "id": "b"}}]}
            """)
        #expect(two == FHIRImportError(entry: .init(index: 1, fullUrl: "urn:b", id: "b"), problem: .secondPatient))
        let gender = Self.failure(#"{"resourceType": "Bundle", "type": "collection", "entry": [{"fullUrl": "urn:a", "resource": {"resourceType": "Patient", "id": "a", "gender": "f"}}]}"#)
        #expect(gender?.entry == FHIRImportError.Entry(index: 0, fullUrl: "urn:a", id: "a"))
        guard case .badValue("gender", _)? = gender?.problem else { Issue.record("\(String(describing: gender))"); return }
    }

    @Test("a patient identifier with a control character is refused at the Patient entry, before it can name another patient")
    func patientIdentifier() {
        for id in [#"p-1\u0000x"#, #"p-1\n"#, #"\u007f"#] {
            let error = Self.failure(#"""
                {"resourceType": "Bundle", "type": "collection", "entry": [{"fullUrl": "urn:a", "resource": {"resourceType": "Patient", "id": "a",
                  "identifier": [{"system": "urn:sade:patient", "value": "\#(id)"}]}}]}
                """#)
            #expect(error?.entry == FHIRImportError.Entry(index: 0, fullUrl: "urn:a", id: "a"), "\(id)")
            guard case .invalidPatient(.invalidValue(field: "id", _))? = error?.problem else { Issue.record("\(id): \(String(describing: error))"); return }
        }
    }

    @Test("a blood-pressure component whose id is another sample's names the entry that repeats it")
    func duplicateComponentID() throws {
        let earlier = try Self.failure(changing: 5) { $0.component?[0].id = F.id(1).uuidString.lowercased() }
        #expect(earlier == FHIRImportError(entry: Self.entry(5), problem: .duplicateSample(F.id(1))))
        let itself = try Self.failure(changing: 5) { $0.component?[1].id = F.id(5).uuidString.lowercased() }
        #expect(itself == FHIRImportError(entry: Self.entry(5), problem: .duplicateSample(F.id(5))))
        let twice = try Self.failure(changing: 5) { observation in
            let first = observation.component?[0].id
            observation.component?[1].id = first
        }
        #expect(twice == FHIRImportError(entry: Self.entry(5), problem: .duplicateSample(F.id(105))))
        // A later observation with a component's id is the one named.
        let later = try Self.failure(changing: 12) {
            $0.id = F.id(205).uuidString.lowercased()
            $0.identifier = nil
        }
        #expect(later?.entry?.index == Self.entry(12).index)
        #expect(later?.problem == .duplicateSample(F.id(205)))
    }

    @Test("a number too large for a Double names the entry and the path")
    func unrepresentableNumber() throws {
        var text = String(decoding: try FHIRExporter().json(patient: F.patient, samples: F.samples), as: UTF8.self)
        let range = try #require(text.range(of: "\"value\" : 1234\n"))  // the steps
        text.replaceSubrange(range, with: "\"value\" : 1e400\n")
        let error = Self.failure(text)
        #expect(error == FHIRImportError(entry: Self.entry(6), problem: .malformedJSON(path: "resource.valueQuantity.value", reason: "the number 1e400 is too large")))
    }

    @Test("a huge number standing as an entry of its own is an error, not a crash")
    func unrepresentableNumberAsEntry() {
        let error = Self.failure(#"{"resourceType":"Bundle","type":"collection","entry":[1e400]}"#)
        guard case .malformedJSON? = error?.problem else { Issue.record("\(String(describing: error))"); return }
        #expect(error?.entry?.index == 0)
    }
}
