import Foundation

/// Where in its episode an anomaly stands. One episode — from the first abnormal
/// value until the values have been back in range for a while — gives one `onset`,
/// an `escalation` each time it gets worse, and one `resolved` at its end.
public enum AnomalyPhase: String, CaseIterable, Hashable, Sendable, Codable {
    /// The episode starts: the first abnormal finding.
    case onset
    /// The episode got worse: a higher severity or NEWS2 band than reported so far.
    case escalation
    /// The episode is over: back in range long enough, or data arrives again.
    case resolved
}

/// Something abnormal about a patient found by the ``AnomalyDetector`` (the
/// SADE4Health `AnomaliesAction`'s result).
public struct Anomaly: Hashable, Sendable, Codable, Identifiable {
    /// Unique per report.
    public var id: UUID
    /// The episode the report belongs to; every report of one episode shares it.
    public var episode: UUID
    /// Whose.
    public var patient: PatientID
    /// What is wrong.
    public var kind: AnomalyKind
    /// Start, worsening or end of the episode.
    public var phase: AnomalyPhase
    /// How urgent: the episode's highest severity so far.
    public var severity: AnomalySeverity
    /// The readings behind the finding: the out-of-range value, or the values NEWS2
    /// was scored from; empty for ``AnomalyKind/noData``.
    public var readings: [PatientVitalSign]
    /// The patient's typical range, for ``AnomalyKind/outOfRange(_:)``.
    public var typicalRange: ClosedRange<Double>?
    /// The NEWS2 score, for ``AnomalyKind/news2``.
    public var score: NEWS2Score?
    /// When the patient's last data was recorded, for ``AnomalyKind/noData``.
    public var lastData: Date?
    /// When the finding holds: the abnormal reading's time, the NEWS2 evaluation, the
    /// moment data was missing for too long, or the end of the episode.
    public var time: Date

    /// Creates an anomaly report.
    public init(
        id: UUID = UUID(), episode: UUID, patient: PatientID, kind: AnomalyKind, phase: AnomalyPhase, severity: AnomalySeverity,
        readings: [PatientVitalSign] = [], typicalRange: ClosedRange<Double>? = nil, score: NEWS2Score? = nil,
        lastData: Date? = nil, time: Date
    ) {
        self.id = id
        self.episode = episode
        self.patient = patient
        self.kind = kind
        self.phase = phase
        self.severity = severity
        self.readings = readings
        self.typicalRange = typicalRange
        self.score = score
        self.lastData = lastData
        self.time = time
    }

    /// One line for people, e.g. `p-1 heartRate 120 outside 51–90 count/min (warning, onset)`.
    public var summary: String {
        let detail: String
        switch kind {
        case .outOfRange(let type):
            let value = readings.last.map { "\($0.value)" } ?? "?"
            let range = typicalRange.map { " outside \($0.lowerBound)–\($0.upperBound)" } ?? ""
            detail = "\(type.rawValue) \(value)\(range) \(type.canonicalUnit)"
        case .news2:
            detail = score.map { "NEWS2 \($0.total), \($0.band)\($0.redFlag ? ", red flag" : "")" } ?? "NEWS2"
        case .noData:
            detail = "no data" + (lastData.map { " since \($0)" } ?? " yet")
        }
        return "\(patient) \(detail) (\(severity), \(phase.rawValue))"
    }
}
