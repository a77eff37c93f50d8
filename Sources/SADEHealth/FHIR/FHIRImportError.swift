import Foundation

/// Why a FHIR Bundle was refused: which entry (if the fault is in one) and what is
/// wrong with it, e.g. `entry 3 (urn:uuid:…): valueQuantity is missing`.
public struct FHIRImportError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Where in the Bundle: the entry's position (from 0), its `fullUrl` and its resource id.
    public struct Entry: Hashable, Sendable, CustomStringConvertible {
        /// The position in `Bundle.entry`, from 0.
        public var index: Int
        /// The entry's `fullUrl`, if it has one.
        public var fullUrl: String?
        /// The resource's `id`, if it has one.
        public var id: String?

        /// Creates a location.
        public init(index: Int, fullUrl: String? = nil, id: String? = nil) {
            self.index = index
            self.fullUrl = fullUrl
            self.id = id
        }

        /// E.g. `entry 3 (urn:uuid:…)`, or `entry 3 (id abc)` when there is no `fullUrl`.
        public var description: String {
            if let fullUrl { return "entry \(index) (\(fullUrl))" }
            if let id { return "entry \(index) (id \(id))" }
            return "entry \(index)"
        }
    }

    /// What is wrong.
    public enum Problem: Error, Hashable, Sendable, CustomStringConvertible {
        /// Not JSON, or JSON of the wrong shape at `path` (e.g. `resource.valueQuantity.value`).
        case malformedJSON(path: String, reason: String)
        /// The document is another resource, not a Bundle.
        case notABundle(resourceType: String)
        /// A Bundle type that does not carry data (`history`, `message` …).
        case unsupportedBundleType(String)
        /// No `Patient` entry.
        case noPatient
        /// A second `Patient` entry; a Bundle carries one patient's data.
        case secondPatient
        /// A resource other than `Patient` or `Observation`.
        case wrongResourceType(String)
        /// A required element is absent.
        case missingElement(String)
        /// None of the codes is one SADE reads (``FHIRObservationCode``); lists them as `system|code`.
        case unknownCode([String])
        /// A unit that is not UCUM, not known, or not of the observed quantity.
        case badUnit(element: String, unit: String, reason: String)
        /// Text that is not a FHIR `dateTime` with a time and a zone (or a `date` for `birthDate`).
        case badDate(element: String, value: String)
        /// No usable UUID for the sample.
        case badIdentifier(String)
        /// The subject does not refer to the Bundle's Patient.
        case badReference(String)
        /// An element holds a value SADE cannot use.
        case badValue(element: String, reason: String)
        /// A status other than `final`, `amended`, `corrected` or `preliminary`.
        case unsupportedStatus(String)
        /// Two samples carry the same UUID: two observations, or a blood-pressure
        /// component and another observation or component.
        case duplicateSample(UUID)
        /// The sample the entry describes is impossible (``HealthSample/validate()``).
        case invalidSample(HealthError)
        /// The Patient cannot be stored as it is (``Patient/validate()``), e.g. an
        /// identifier with a control character.
        case invalidPatient(HealthError)

        /// A sentence saying what is wrong.
        public var description: String {
            switch self {
            case .malformedJSON(let path, let reason): path.isEmpty ? "not a FHIR Bundle in JSON: \(reason)" : "\(path): \(reason)"
            case .notABundle(let type): "the document is a \(type), not a Bundle"
            case .unsupportedBundleType(let type): "bundle type '\(type)' does not carry data (use collection)"
            case .noPatient: "the bundle holds no Patient"
            case .secondPatient: "a second Patient; a bundle carries one patient's data"
            case .wrongResourceType(let type): "resourceType \(type): only Patient and Observation are read"
            case .missingElement(let element): "\(element) is missing"
            case .unknownCode(let codes):
                codes.isEmpty ? "code has no coding" : "unknown code \(codes.joined(separator: ", ")) (see FHIRObservationCode)"
            case .badUnit(let element, let unit, let reason): "\(element): unit '\(unit)' \(reason)"
            case .badDate(let element, let value): "\(element): '\(value)' is not a FHIR date and time with a time zone"
            case .badIdentifier(let reason): "no sample UUID: \(reason)"
            case .badReference(let reference): "subject '\(reference)' does not refer to the bundle's Patient"
            case .badValue(let element, let reason): "\(element): \(reason)"
            case .unsupportedStatus(let status): "status '\(status)' is not final, amended, corrected or preliminary"
            case .duplicateSample(let id): "sample \(id.uuidString.lowercased()) appears twice"
            case .invalidSample(let error): "invalid sample: \(error)"
            case .invalidPatient(let error): "invalid patient: \(error)"
            }
        }
    }

    /// The entry at fault; `nil` when the fault is in the Bundle as a whole.
    public var entry: Entry?
    /// What is wrong.
    public var problem: Problem

    /// Creates an error.
    public init(entry: Entry?, problem: Problem) {
        self.entry = entry
        self.problem = problem
    }

    /// E.g. `entry 3 (urn:uuid:…): valueQuantity is missing`.
    public var description: String {
        entry.map { "\($0): \(problem)" } ?? problem.description
    }
}
