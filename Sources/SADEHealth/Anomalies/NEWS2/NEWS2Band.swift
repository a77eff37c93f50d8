/// The clinical risk a NEWS2 score triggers (RCP 2017, chart 3), lowest first.
///
/// Encoded as `low`, `low-medium`, `medium`, `high`.
public enum NEWS2Band: String, CaseIterable, Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    /// Aggregate 0–4 and no parameter scoring 3: ward-based response.
    case low
    /// A red flag — 3 in a single parameter — with an aggregate below 5: urgent
    /// ward-based response.
    case lowMedium = "low-medium"
    /// Aggregate 5–6: the key threshold for an urgent response.
    case medium
    /// Aggregate 7 or more: urgent or emergency response.
    case high

    /// The band of an aggregate `total`, with or without a red flag.
    public init(total: Int, redFlag: Bool) {
        if total >= 7 {
            self = .high
        } else if total >= 5 {
            self = .medium
        } else if redFlag {
            self = .lowMedium
        } else {
            self = .low
        }
    }

    private var rank: Int { Self.allCases.firstIndex(of: self) ?? 0 }

    /// Orders bands from low to high risk.
    public static func < (lhs: NEWS2Band, rhs: NEWS2Band) -> Bool { lhs.rank < rhs.rank }

    /// The encoded name, e.g. `low-medium`.
    public var description: String { rawValue }
}

/// What the clinical team should do for a NEWS2 score (RCP 2017, charts 3 and 4,
/// summarised): how often to observe and who must respond how.
public struct NEWS2Response: Hashable, Sendable, Codable {
    /// The kind of response, e.g. `Urgent ward-based response`.
    public var kind: String
    /// The minimum frequency of observations, e.g. `minimum 1-hourly`.
    public var monitoring: String
    /// What the nurse and medical team should do.
    public var actions: [String]

    /// The response the RCP recommends for `total` in `band`.
    public init(total: Int, band: NEWS2Band) {
        switch band {
        case .low where total == 0:
            kind = "Ward-based response"
            monitoring = "minimum 12-hourly"
            actions = ["Continue routine NEWS monitoring."]
        case .low:
            kind = "Ward-based response"
            monitoring = "minimum 4–6-hourly"
            actions = [
                "Inform the registered nurse, who must assess the patient.",
                "The registered nurse decides whether monitoring should be more frequent and/or care escalated.",
            ]
        case .lowMedium:
            kind = "Urgent ward-based response"
            monitoring = "minimum 1-hourly"
            actions = [
                "The registered nurse informs the medical team caring for the patient,"
                    + " who review and decide whether care must be escalated.",
            ]
        case .medium:
            kind = "Key threshold for urgent response"
            monitoring = "minimum 1-hourly"
            actions = [
                "The registered nurse immediately informs the medical team caring for the patient.",
                "The registered nurse requests urgent assessment by a clinician or team competent in the care of acutely ill patients.",
                "Provide clinical care in an environment with monitoring facilities.",
            ]
        case .high:
            kind = "Urgent or emergency response"
            monitoring = "continuous monitoring of vital signs"
            actions = [
                "The registered nurse immediately informs the medical team caring for the patient, at least at specialist registrar level.",
                "Emergency assessment by a team with critical-care competencies, including advanced airway management.",
                "Consider transfer to a level 2 or 3 care facility (high-dependency unit or ICU).",
                "Provide clinical care in an environment with monitoring facilities.",
            ]
        }
    }
}
