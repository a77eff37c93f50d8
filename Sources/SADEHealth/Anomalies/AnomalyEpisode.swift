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
    /// The highest NEWS2 total reported so far, for ``AnomalyKind/news2``.
    public internal(set) var total: Int?
    /// Since when the values are back in range, if they are.
    public internal(set) var inRangeSince: Date?
    /// The typical range the values were checked against, for ``AnomalyKind/outOfRange(_:)``.
    public internal(set) var typicalRange: ClosedRange<Double>?

    init(patient: PatientID, kind: AnomalyKind, started: Date, severity: AnomalySeverity, band: NEWS2Band?, total: Int? = nil) {
        id = UUID()
        self.patient = patient
        self.kind = kind
        self.started = started
        self.severity = severity
        self.band = band
        self.total = total
    }

    /// Whether a finding of `severity`, `band` and NEWS2 `total` is worse than anything
    /// reported so far: a higher severity, a higher band, or a higher total within the
    /// same band (8 → 12 is still "high", and still worse).
    func isWorse(severity: AnomalySeverity, band: NEWS2Band?, total: Int?) -> Bool {
        if severity > self.severity { return true }
        if let band, let reported = self.band, band > reported { return true }
        if let total, let reported = self.total, total > reported { return true }
        return false
    }

    /// Takes in a finding that is reported: the highest severity, band and total so far.
    mutating func record(severity: AnomalySeverity, band: NEWS2Band?, total: Int?) {
        self.severity = max(self.severity, severity)
        self.band = [self.band, band].compactMap { $0 }.max()
        self.total = [self.total, total].compactMap { $0 }.max()
    }

    /// The time the episode ends if nothing abnormal happens: `rearmAfter` after the
    /// values came back in range.
    func end(rearmAfter: TimeInterval) -> Date? { inRangeSince?.addingTimeInterval(rearmAfter) }
}
