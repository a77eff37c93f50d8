import Foundation
import SADEHealth

/// Something that happened in the monitoring pipeline, pushed live to dashboards.
///
/// Every event names its patient (and the patient's sector), so the server can pass
/// each caller only what it may see. Encoded as one JSON object with a `"type"`
/// discriminator — `samples`, `news2`, `alert`, `acknowledged`, `escalated` — and
/// the payload's fields beside it: `{"type": "alert", "id": …, "patient": …}`.
public enum MonitoringEvent: Hashable, Sendable {
    /// New samples of a patient were accepted and evaluated.
    case samples(SamplesEvent)
    /// A patient's NEWS2 after new samples.
    case news2(NEWS2Event)
    /// An alert was raised.
    case alert(AlertRecord)
    /// An alert was acknowledged.
    case acknowledged(AlertRecord)
    /// An alert escalated to its next step (the last of its ``AlertRecord/escalations``).
    case escalated(AlertRecord)

    /// The kinds of event, as their discriminators name them.
    public enum Kind: String, CaseIterable, Hashable, Sendable {
        case samples, news2, alert, acknowledged, escalated
    }

    /// The event's kind.
    public var kind: Kind {
        switch self {
        case .samples: .samples
        case .news2: .news2
        case .alert: .alert
        case .acknowledged: .acknowledged
        case .escalated: .escalated
        }
    }

    /// The discriminator: `samples`, `news2`, `alert`, `acknowledged` or `escalated`.
    public var type: String { kind.rawValue }

    /// The patient the event is about.
    public var patient: PatientID {
        switch self {
        case .samples(let event): event.patient
        case .news2(let event): event.patient
        case .alert(let record), .acknowledged(let record), .escalated(let record): record.patient
        }
    }

    /// The patient's sector, if known.
    public var sector: SectorID? {
        switch self {
        case .samples(let event): event.sector
        case .news2(let event): event.sector
        case .alert(let record), .acknowledged(let record), .escalated(let record): record.sector
        }
    }

    /// The alert the event is about, for alert events.
    public var alert: AlertRecord? {
        switch self {
        case .alert(let record), .acknowledged(let record), .escalated(let record): record
        case .samples, .news2: nil
        }
    }
}

/// New samples of one patient.
public struct SamplesEvent: Hashable, Sendable, Codable {
    /// Whose.
    public var patient: PatientID
    /// The patient's sector, if admitted.
    public var sector: SectorID?
    /// The samples, as observations.
    public var observations: [MonitoredObservation]

    /// Creates the event from samples of `patient`.
    public init(patient: PatientID, sector: SectorID?, samples: [HealthSample]) {
        self.patient = patient
        self.sector = sector
        self.observations = samples.flatMap(MonitoredObservation.of)
    }
}

/// A patient's NEWS2 from their latest readings.
public struct NEWS2Event: Hashable, Sendable, Codable {
    /// Whose.
    public var patient: PatientID
    /// The patient's sector, if admitted.
    public var sector: SectorID?
    /// The aggregate score.
    public var total: Int
    /// The clinical risk band.
    public var band: NEWS2Band
    /// Whether a single parameter scored 3.
    public var redFlag: Bool
    /// The full score: observations, sub-scores, missing parameters.
    public var score: NEWS2Score
    /// When it was scored.
    public var at: Date

    /// Creates the event.
    public init(patient: PatientID, sector: SectorID?, score: NEWS2Score, at: Date) {
        self.patient = patient
        self.sector = sector
        self.total = score.total
        self.band = score.band
        self.redFlag = score.redFlag
        self.score = score
        self.at = at
    }
}

extension MonitoringEvent: Codable {
    private enum CodingKeys: String, CodingKey { case type }

    /// Encodes the payload's fields and `type`.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .samples(let event): try event.encode(to: encoder)
        case .news2(let event): try event.encode(to: encoder)
        case .alert(let record), .acknowledged(let record), .escalated(let record): try record.encode(to: encoder)
        }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type, forKey: .type)
    }

    /// Decodes by `type`; an unknown type is an error.
    public init(from decoder: any Decoder) throws {
        let type = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .type)
        switch type {
        case "samples": self = .samples(try SamplesEvent(from: decoder))
        case "news2": self = .news2(try NEWS2Event(from: decoder))
        case "alert": self = .alert(try AlertRecord(from: decoder))
        case "acknowledged": self = .acknowledged(try AlertRecord(from: decoder))
        case "escalated": self = .escalated(try AlertRecord(from: decoder))
        default:
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "unknown event type '\(type)'"))
        }
    }
}
