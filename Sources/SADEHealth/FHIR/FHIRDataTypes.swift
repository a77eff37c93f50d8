/// A code from a code system (FHIR `Coding`), e.g. LOINC `8867-4` "Heart rate".
public struct FHIRCoding: Codable, Hashable, Sendable {
    /// The code system's URI, e.g. `http://loinc.org`.
    public var system: String?
    /// The code in that system.
    public var code: String?
    /// A name for people.
    public var display: String?

    /// Creates a coding.
    public init(system: String?, code: String?, display: String? = nil) {
        self.system = system
        self.code = code
        self.display = display
    }
}

/// A concept given by one or more codings and a text (FHIR `CodeableConcept`).
public struct FHIRCodeableConcept: Codable, Hashable, Sendable {
    /// Equivalent codes, from different systems or at different detail.
    public var coding: [FHIRCoding]?
    /// The concept as a person would say it.
    public var text: String?

    /// Creates a concept.
    public init(coding: [FHIRCoding]?, text: String? = nil) {
        self.coding = coding
        self.text = text
    }

    /// Whether one of the codings is `code` of `system`.
    public func contains(system: String, code: String) -> Bool {
        coding?.contains { $0.system == system && $0.code == code } ?? false
    }
}

/// A measured amount (FHIR `Quantity`): the number, its unit for people, and the
/// unit as a UCUM code.
public struct FHIRQuantity: Codable, Hashable, Sendable {
    /// The number.
    public var value: Double?
    /// The unit as people write it, e.g. `mmHg`.
    public var unit: String?
    /// The unit's code system, ``FHIRSystem/ucum`` for every quantity SADE writes.
    public var system: String?
    /// The unit's code, e.g. `mm[Hg]`.
    public var code: String?

    /// Creates a quantity.
    public init(value: Double?, unit: String? = nil, system: String? = nil, code: String? = nil) {
        self.value = value
        self.unit = unit
        self.system = system
        self.code = code
    }

    /// `value` in `unit`, coded in UCUM.
    public init(_ value: Double, _ unit: HealthUnit) {
        self.init(value: value, unit: unit.symbol, system: FHIRSystem.ucum, code: unit.ucumCode)
    }
}

/// A range of quantities (FHIR `Range`).
public struct FHIRRange: Codable, Hashable, Sendable {
    /// The lower bound.
    public var low: FHIRQuantity?
    /// The upper bound.
    public var high: FHIRQuantity?

    /// Creates a range.
    public init(low: FHIRQuantity?, high: FHIRQuantity?) {
        self.low = low
        self.high = high
    }
}

/// A reference from one resource to another (FHIR `Reference`): by `reference`
/// (an entry's `fullUrl` or `Type/id`), or only described by `display`.
public struct FHIRReference: Codable, Hashable, Sendable {
    /// The target's URL, e.g. `urn:uuid:…` or `Patient/p-1`.
    public var reference: String?
    /// A name for people; SADE keeps a sample's device here.
    public var display: String?

    /// Creates a reference.
    public init(reference: String? = nil, display: String? = nil) {
        self.reference = reference
        self.display = display
    }
}

/// A business identifier (FHIR `Identifier`): a value unique within a system.
public struct FHIRIdentifier: Codable, Hashable, Sendable {
    /// The namespace, e.g. ``FHIRSystem/uri`` for `urn:uuid:` values.
    public var system: String?
    /// The identifier.
    public var value: String?

    /// Creates an identifier.
    public init(system: String?, value: String?) {
        self.system = system
        self.value = value
    }
}

/// A time interval (FHIR `Period`), its ends as FHIR `dateTime` text (``FHIRDateTime``).
public struct FHIRPeriod: Codable, Hashable, Sendable {
    /// When it starts.
    public var start: String?
    /// When it ends.
    public var end: String?

    /// Creates a period.
    public init(start: String?, end: String?) {
        self.start = start
        self.end = end
    }
}

/// A person's name (FHIR `HumanName`); SADE writes the full name as `text`.
public struct FHIRHumanName: Codable, Hashable, Sendable {
    /// The whole name.
    public var text: String?
    /// Family name.
    public var family: String?
    /// Given names.
    public var given: [String]?

    /// Creates a name.
    public init(text: String?, family: String? = nil, given: [String]? = nil) {
        self.text = text
        self.family = family
        self.given = given
    }

    /// The name to show: `text`, else the given names and the family name.
    public var fullName: String? {
        if let text, !text.isEmpty { return text }
        let parts = (given ?? []) + (family.map { [$0] } ?? [])
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }
}

/// Resource metadata (FHIR `Meta`): the profiles a resource claims to follow.
public struct FHIRMeta: Codable, Hashable, Sendable {
    /// Canonical URLs of profiles, e.g. `http://hl7.org/fhir/StructureDefinition/heartrate`.
    public var profile: [String]?

    /// Creates metadata.
    public init(profile: [String]?) { self.profile = profile }
}
