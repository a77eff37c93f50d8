/// Identifies a hospital.
public typealias HospitalID = String
/// Identifies a sector of a hospital.
public typealias SectorID = String
/// Identifies a health-care worker.
public typealias StaffID = String

/// A hospital (SADE4Health's `Hospital`).
public struct Hospital: Hashable, Sendable, Codable, Identifiable {
    /// Unique.
    public var id: HospitalID
    /// Its name.
    public var name: String
    /// Its address, if recorded.
    public var address: String?

    /// Creates a hospital.
    public init(id: HospitalID, name: String, address: String? = nil) {
        self.id = id
        self.name = name
        self.address = address
    }
}

/// A sector (ward, unit) of a hospital, where patients are interned and staff work
/// (SADE4Health's `HospitalSector`).
public struct HospitalSector: Hashable, Sendable, Codable, Identifiable {
    /// Unique.
    public var id: SectorID
    /// The hospital it belongs to.
    public var hospital: HospitalID
    /// Its name, e.g. `COVID ward`.
    public var name: String
    /// Who is told when nobody on duty takes an alert (e-mail addresses).
    public var mailingList: [String]

    /// Creates a sector.
    public init(id: SectorID, hospital: HospitalID, name: String, mailingList: [String] = []) {
        self.id = id
        self.hospital = hospital
        self.name = name
        self.mailingList = mailingList
    }
}

/// Someone who cares for patients (SADE4Health's `HealthCareWorker`, with its
/// `Doctor` and `Nurse` kinds as ``Role``s).
public struct HealthCareWorker: Hashable, Sendable, Codable, Identifiable {
    /// What the worker is: a doctor or a nurse, or a role an app registers
    /// (``register(_:)``, e.g. `physiotherapist`) at start-up, before it reads workers.
    public struct Role: RawRepresentable, CaseIterable, Hashable, Sendable, Codable, CustomStringConvertible {
        /// The role's name, e.g. `nurse`.
        public let rawValue: String

        private init(_ name: String) { rawValue = name }

        /// The registered role named `rawValue`.
        public init?(rawValue: String) {
            guard let role = Self.registered[rawValue] else { return nil }
            self = role
        }

        public static let doctor = Role("doctor")
        public static let nurse = Role("nurse")

        /// Every role: SADE's, then the app's in the order registered.
        public static var allCases: [Role] { registered.all }

        private static let registered = NameRegistry([doctor, nurse], name: \.rawValue)

        /// Adds an app's role (registering it again returns it). Workers of any role
        /// may bid for alerts: list it in `AlertRules.contractors`.
        ///
        /// - Throws: ``HealthError/invalidValue(field:reason:)`` unless `name` is
        ///   lower-case letters, digits and hyphens.
        @discardableResult
        public static func register(_ name: String) throws(HealthError) -> Role {
            let allowed = Set("abcdefghijklmnopqrstuvwxyz0123456789-")
            guard !name.isEmpty, name.allSatisfy(allowed.contains) else {
                throw .invalidValue(field: "role", reason: "\(name.debugDescription) is not lower-case letters, digits and hyphens")
            }
            return try registered.add(Role(name), names: [name], isSame: { _, _ in true }) { _ in .invalidValue(field: "role", reason: name) }
        }

        /// The name.
        public var description: String { rawValue }

        /// Encodes the name.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }

        /// Decodes a registered role's name; any other is an error.
        public init(from decoder: any Decoder) throws {
            let name = try decoder.singleValueContainer().decode(String.self)
            guard let role = Role(rawValue: name) else {
                throw DecodingError.dataCorrupted(
                    .init(codingPath: decoder.codingPath, debugDescription: "unknown role \(name) (known: \(Role.allCases.map(\.rawValue).joined(separator: ", ")))"))
            }
            self = role
        }
    }

    /// Unique, e.g. the login name.
    public var id: StaffID
    /// Full name.
    public var name: String
    /// Doctor or nurse.
    public var role: Role
    /// Professional licence number (CRM, COREN, GMC …), if recorded.
    public var licence: String?
    /// Contact e-mail.
    public var email: String?
    /// Contact phone.
    public var phone: String?
    /// The sectors the worker is assigned to.
    public var sectors: Set<SectorID>
    /// Whether the worker is on duty now.
    public var onDuty: Bool

    /// Creates a worker.
    public init(
        id: StaffID, name: String, role: Role, licence: String? = nil, email: String? = nil, phone: String? = nil,
        sectors: Set<SectorID> = [], onDuty: Bool = false
    ) {
        self.id = id
        self.name = name
        self.role = role
        self.licence = licence
        self.email = email
        self.phone = phone
        self.sectors = sectors
        self.onDuty = onDuty
    }

    /// A doctor.
    public static func doctor(id: StaffID, name: String, sectors: Set<SectorID> = [], email: String? = nil) -> HealthCareWorker {
        HealthCareWorker(id: id, name: name, role: .doctor, email: email, sectors: sectors)
    }

    /// A nurse.
    public static func nurse(id: StaffID, name: String, sectors: Set<SectorID> = [], email: String? = nil) -> HealthCareWorker {
        HealthCareWorker(id: id, name: name, role: .nurse, email: email, sectors: sectors)
    }
}
