/// How urgently an anomaly needs a person (the AAL seed's alert classes), lowest first.
public enum AnomalySeverity: String, CaseIterable, Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    /// Worth knowing; nobody needs to act now.
    case information
    /// Someone should look at the patient soon.
    case warning
    /// Someone must act now.
    case alarm

    /// The severity of a NEWS2 band: low → information, low-medium and medium →
    /// warning, high → alarm.
    public init(_ band: NEWS2Band) {
        switch band {
        case .low: self = .information
        case .lowMedium, .medium: self = .warning
        case .high: self = .alarm
        }
    }

    private var rank: Int { Self.allCases.firstIndex(of: self) ?? 0 }

    /// Orders severities from information to alarm.
    public static func < (lhs: AnomalySeverity, rhs: AnomalySeverity) -> Bool { lhs.rank < rhs.rank }

    /// The name, e.g. `warning`.
    public var description: String { rawValue }
}
