/// A FHIR R4 `Observation` resource: the subset SADE writes and reads (one
/// measurement, category, coded, about a subject, at a time or over a period, with
/// one value, its interpretation, the device and components).
///
/// SADE's own facts travel as extensions (URLs under ``FHIRExtension/sadeBase``):
/// `source` (`valueString`, the app or agent that recorded the sample), `metadata`
/// (parts `key` and `value`, one per entry) and `ecg-lead` (`valueString`).
public struct FHIRObservation: Codable, Hashable, Sendable {
    /// Always `Observation`.
    public var resourceType = "Observation"
    /// The resource id; SADE uses the sample's UUID in lower case.
    public var id: String?
    /// The profiles claimed, e.g. the vital-signs `heartrate` profile.
    public var meta: FHIRMeta?
    /// SADE's facts FHIR has no element for.
    public var `extension`: [FHIRExtension]?
    /// Business identifiers; SADE writes `urn:uuid:<sample UUID>` in system ``FHIRSystem/uri``.
    public var identifier: [FHIRIdentifier]?
    /// `final` for everything SADE writes.
    public var status: String?
    /// E.g. `vital-signs`.
    public var category: [FHIRCodeableConcept]?
    /// What was observed (``FHIRObservationCode``).
    public var code: FHIRCodeableConcept?
    /// The patient.
    public var subject: FHIRReference?
    /// When, for a point in time.
    public var effectiveDateTime: String?
    /// When, for an interval.
    public var effectivePeriod: FHIRPeriod?
    /// A measured value.
    public var valueQuantity: FHIRQuantity?
    /// A coded value (consciousness).
    public var valueCodeableConcept: FHIRCodeableConcept?
    /// A yes/no value (supplemental oxygen).
    public var valueBoolean: Bool?
    /// A waveform (ECG).
    public var valueSampledData: FHIRSampledData?
    /// High, low, critically high or low (``FHIRInterpretation``).
    public var interpretation: [FHIRCodeableConcept]?
    /// The device, by name (`display`).
    public var device: FHIRReference?
    /// Parts measured together: blood-pressure systolic and diastolic, an ECG's heart rate.
    public var component: [Component]?

    /// A part of an observation (FHIR `Observation.component`).
    public struct Component: Codable, Hashable, Sendable {
        /// SADE keeps a blood-pressure member sample's UUID here.
        public var id: String?
        /// What the part is.
        public var code: FHIRCodeableConcept?
        /// Its value.
        public var valueQuantity: FHIRQuantity?
        /// Its interpretation.
        public var interpretation: [FHIRCodeableConcept]?

        /// Creates a component.
        public init(id: String? = nil, code: FHIRCodeableConcept?, valueQuantity: FHIRQuantity?, interpretation: [FHIRCodeableConcept]? = nil) {
            self.id = id
            self.code = code
            self.valueQuantity = valueQuantity
            self.interpretation = interpretation
        }
    }

    /// Creates an observation with `status` `final`; set the other elements as needed.
    public init(id: String? = nil, code: FHIRCodeableConcept? = nil, subject: FHIRReference? = nil) {
        self.id = id
        self.status = "final"
        self.code = code
        self.subject = subject
    }

    /// The URLs of SADE's observation extensions.
    public enum ExtensionURL {
        public static let source = FHIRExtension.sadeBase + "source"
        public static let metadata = FHIRExtension.sadeBase + "metadata"
        public static let ecgLead = FHIRExtension.sadeBase + "ecg-lead"
    }
}
