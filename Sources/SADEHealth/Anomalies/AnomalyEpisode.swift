import Foundation

/// An open episode of one kind of anomaly for one patient, as the
/// ``AnomalyDetector`` tracks it: it lasts from the first abnormal finding until the
/// values have been back in range for ``AnomalyDetector/Configuration/rearmAfter``.
public struct AnomalyEpisode: Hashable, Sendable {
    /// Shared by every ``Anomaly`` of the episode.
    public let id: UUID
    /// Whose.
    public let patient: PatientID
    /// What is wrong.
    public let kind: AnomalyKind
    /// When the first abnormal finding was made.
    public let started: Date
    /// The highest severity reported so far.
    public internal(set) var severity: AnomalySeverity
    /// The highest NEWS2 band reported so far, for ``AnomalyKind/news2``.
    public internal(set) var band: NEWS2Band?
    /// Since when the values are back in range, if they are.
    public internal(set) var inRangeSince: Date?
    /// The typical range the values were checked against, for ``AnomalyKind/outOfRange(_:)``.
    public internal(set) var typicalRange: ClosedRange<Double>?

    init(patient: PatientID, kind: AnomalyKind, started: Date, severity: AnomalySeverity, band: NEWS2Band?) {
        id = UUID()
        self.patient = patient
        self.kind = kind
        self.started = started
        self.severity = severity
        self.band = band
    }

    /// Whether a finding of `severity` and `band` is worse than anything reported so far.
    func isWorse(severity: AnomalySeverity, band: NEWS2Band?) -> Bool {
        if severity > self.severity { return true }
        if let band, let reported = self.band, band > reported { return true }
        return false
    }

    /// The time the episode ends if nothing abnormal happens: `rearmAfter` after the
    /// values came back in range.
    func end(rearmAfter: TimeInterval) -> Date? { inRangeSince?.addingTimeInterval(rearmAfter) }
}
