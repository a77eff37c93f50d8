/// A FHIR R4 `Patient` resource: the subset SADE writes and reads.
///
/// SADE's own facts travel as extensions (URLs under ``FHIRExtension/sadeBase``):
/// `blood-type` (`valueCode`, a ``BloodType`` raw value), `typical-range` (parts
/// `type`, a ``QuantityType`` raw value, and `range`, in the canonical unit),
/// `spo2-scale-2` (`valueBoolean`) and `attribute` (parts `key` and `value`).
public struct FHIRPatient: Codable, Hashable, Sendable {
    /// Always `Patient`.
    public var resourceType = "Patient"
    /// The resource id (FHIR `id`: letters, digits, `-` and `.`, at most 64).
    public var id: String?
    /// The profiles claimed.
    public var meta: FHIRMeta?
    /// SADE's facts FHIR has no element for.
    public var `extension`: [FHIRExtension]?
    /// Business identifiers; SADE's ``PatientID`` has system ``FHIRSystem/sadePatient``.
    public var identifier: [FHIRIdentifier]?
    /// Names.
    public var name: [FHIRHumanName]?
    /// `male`, `female`, `other` or `unknown`.
    public var gender: String?
    /// FHIR `date` text.
    public var birthDate: String?

    /// Creates a patient resource.
    public init(id: String? = nil, extension: [FHIRExtension]? = nil, identifier: [FHIRIdentifier]? = nil, name: [FHIRHumanName]? = nil,
                gender: String? = nil, birthDate: String? = nil) {
        self.id = id
        self.extension = `extension`
        self.identifier = identifier
        self.name = name
        self.gender = gender
        self.birthDate = birthDate
    }

    /// The URLs of SADE's patient extensions.
    public enum ExtensionURL {
        public static let bloodType = FHIRExtension.sadeBase + "blood-type"
        public static let typicalRange = FHIRExtension.sadeBase + "typical-range"
        public static let spO2Scale2 = FHIRExtension.sadeBase + "spo2-scale-2"
        public static let attribute = FHIRExtension.sadeBase + "attribute"
    }
}
