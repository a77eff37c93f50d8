/// How each ``HealthType`` is coded in a FHIR Observation: its code, its category and
/// the HL7 profile it follows.
///
/// | type | code | category |
/// |---|---|---|
/// | heart rate | LOINC 8867-4 | vital-signs |
/// | respiratory rate | LOINC 9279-1 | vital-signs |
/// | SpO2 | LOINC 2708-6 and 59408-5 (pulse oximetry) | vital-signs |
/// | body temperature | LOINC 8310-5 | vital-signs |
/// | blood pressure | LOINC 85354-9, components 8480-6 / 8462-4 | vital-signs |
/// | systolic / diastolic alone | LOINC 8480-6 / 8462-4 | vital-signs |
/// | body weight | LOINC 29463-7 | vital-signs |
/// | HRV (SDNN) | LOINC 80404-7 | vital-signs |
/// | steps | LOINC 55423-8 | activity |
/// | consciousness (ACVPU) | SNOMED 1104441000000107 (UK edition, as UK Core and NEWS2 use it), value a SNOMED code of the CareConnect ACVPU value set | survey |
/// | supplemental oxygen | SNOMED 57485005 "Oxygen therapy", `valueBoolean` | therapy |
/// | ECG | LOINC 11524-6 "EKG study", `valueSampledData` | procedure |
public struct FHIRObservationCode: Sendable {
    /// The SADE type.
    public let type: HealthType
    /// The Observation's `code`.
    public let code: FHIRCodeableConcept
    /// The Observation's category code (`vital-signs`, `activity` …).
    public let category: String
    /// The HL7 profile the Observation follows, if any.
    public let profile: String?

    private init(type: HealthType, code: FHIRCodeableConcept, category: String, profile: String?) {
        self.type = type
        self.code = code
        self.category = category
        self.profile = profile
    }

    private init(_ type: HealthType, _ system: String, _ codes: [(String, String)], _ text: String, _ category: String, _ profile: String?) {
        self.type = type
        code = FHIRCodeableConcept(coding: codes.map { FHIRCoding(system: system, code: $0.0, display: $0.1) }, text: text)
        self.category = category
        self.profile = profile.map { "http://hl7.org/fhir/StructureDefinition/\($0)" }
    }

    /// Every type's coding: SADE's, then those of the quantity types an app registered
    /// with one.
    public static var all: [FHIRObservationCode] { registered.all }

    private static let registered = NameRegistry(builtIn, name: \.type.identifier)

    /// The coding of an app's quantity type (see
    /// ``QuantityType/register(_:unit:possibleValues:aggregation:vitalSign:fhir:)``), category `vital-signs`.
    static func register(_ type: QuantityType, coding: FHIRCoding) throws(HealthError) {
        let code = FHIRObservationCode(
            type: .quantity(type), code: FHIRCodeableConcept(coding: [coding], text: coding.display ?? type.rawValue), category: "vital-signs",
            profile: nil)
        _ = try registered.add(code, names: [type.rawValue], isSame: { $0.code == $1.code }) { name in
            .invalidValue(field: "fhir", reason: "\(name) has another FHIR coding already")
        }
    }

    /// The coding registered for `type` (SADE's or an app's), if any.
    static func registeredCoding(of type: QuantityType) -> FHIRCoding? {
        registered[type.rawValue]?.code.coding?.first
    }

    /// How a type nobody coded is written: SADE's code system, the identifier as code.
    private static func uncoded(_ type: HealthType) -> FHIRObservationCode {
        FHIRObservationCode(type, FHIRSystem.sade, [(type.identifier, type.identifier)], type.identifier, "vital-signs", nil)
    }

    /// SADE's own types' codings.
    static let builtIn: [FHIRObservationCode] = [
        FHIRObservationCode(.quantity(.heartRate), FHIRSystem.loinc, [("8867-4", "Heart rate")], "Heart rate", "vital-signs", "heartrate"),
        FHIRObservationCode(
            .quantity(.respiratoryRate), FHIRSystem.loinc, [("9279-1", "Respiratory rate")], "Respiratory rate", "vital-signs", "resprate"),
        FHIRObservationCode(
            .quantity(.oxygenSaturation), FHIRSystem.loinc,
            [("2708-6", "Oxygen saturation in Arterial blood"), ("59408-5", "Oxygen saturation in Arterial blood by Pulse oximetry")],
            "Oxygen saturation", "vital-signs", "oxygensat"),
        FHIRObservationCode(
            .quantity(.bodyTemperature), FHIRSystem.loinc, [("8310-5", "Body temperature")], "Body temperature", "vital-signs", "bodytemp"),
        FHIRObservationCode(
            .correlation(.bloodPressure), FHIRSystem.loinc, [("85354-9", "Blood pressure panel with all children optional")],
            "Blood pressure", "vital-signs", "bp"),
        FHIRObservationCode(
            .quantity(.bloodPressureSystolic), FHIRSystem.loinc, [("8480-6", "Systolic blood pressure")], "Systolic blood pressure",
            "vital-signs", "vitalsigns"),
        FHIRObservationCode(
            .quantity(.bloodPressureDiastolic), FHIRSystem.loinc, [("8462-4", "Diastolic blood pressure")], "Diastolic blood pressure",
            "vital-signs", "vitalsigns"),
        FHIRObservationCode(.quantity(.bodyMass), FHIRSystem.loinc, [("29463-7", "Body weight")], "Body weight", "vital-signs", "bodyweight"),
        FHIRObservationCode(
            .quantity(.heartRateVariabilitySDNN), FHIRSystem.loinc,
            [("80404-7", "R-R interval.standard deviation (Heart rate variability)")], "Heart rate variability (SDNN)", "vital-signs", nil),
        FHIRObservationCode(
            .quantity(.stepCount), FHIRSystem.loinc, [("55423-8", "Number of steps in unspecified time Pedometer")], "Steps", "activity",
            nil),
        FHIRObservationCode(
            .category(.consciousnessLevel), FHIRSystem.snomed,
            [("1104441000000107", "Alert Confusion Voice Pain Unresponsive scale score")], "Consciousness (ACVPU)", "survey", nil),
        FHIRObservationCode(
            .category(.supplementalOxygen), FHIRSystem.snomed, [("57485005", "Oxygen therapy")], "Supplemental oxygen", "therapy", nil),
        FHIRObservationCode(.electrocardiogram, FHIRSystem.loinc, [("11524-6", "EKG study")], "Electrocardiogram", "procedure", nil),
    ]

    /// The coding of `type`.
    public static func of(_ type: HealthType) -> FHIRObservationCode {
        // Every one of SADE's types has an entry (checked by a test); an app's may not.
        registered[type.identifier] ?? uncoded(type)
    }

    /// The type whose code appears among `concept`'s codings, if any.
    public static func type(of concept: FHIRCodeableConcept) -> HealthType? {
        for coding in concept.coding ?? [] {
            guard let system = coding.system, let code = coding.code else { continue }
            if let match = registered.first(where: { $0.code.contains(system: system, code: code) }) { return match.type }
            if system == FHIRSystem.sade, let type = try? HealthType(identifier: code) { return type }
        }
        return nil
    }

    /// The category as a concept.
    public var categoryConcept: FHIRCodeableConcept {
        let display = category.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " ")
        return FHIRCodeableConcept(coding: [FHIRCoding(system: FHIRSystem.observationCategory, code: category, display: display)])
    }

    /// The codes of the blood-pressure components.
    static let systolic = of(.quantity(.bloodPressureSystolic))
    static let diastolic = of(.quantity(.bloodPressureDiastolic))
    static let heartRate = of(.quantity(.heartRate))

    /// SNOMED codes of the ACVPU levels (the CareConnect ACVPU value set).
    public static func coding(of level: ConsciousnessLevel) -> FHIRCoding {
        let (code, display) =
            switch level {
            case .alert: ("248234008", "Mentally alert")
            case .confusion: ("130987000", "Acute confusion")
            case .voice: ("300202002", "Responds to voice")
            case .pain: ("450847001", "Responds to pain")
            case .unresponsive: ("422768004", "Unresponsive")
            }
        return FHIRCoding(system: FHIRSystem.snomed, code: code, display: display)
    }

    /// The ACVPU level one of `concept`'s codings names, if any.
    public static func consciousnessLevel(of concept: FHIRCodeableConcept) -> ConsciousnessLevel? {
        ConsciousnessLevel.allCases.first { level in
            let coding = coding(of: level)
            return concept.contains(system: FHIRSystem.snomed, code: coding.code ?? "")
        }
    }
}
