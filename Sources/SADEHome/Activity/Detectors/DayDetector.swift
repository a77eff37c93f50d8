import Foundation

/// A detector's judgement of one day.
public struct DayVerdict: Hashable, Sendable, Codable {
    /// The day's score (for the thesis's method, its log probability).
    public var score: Double
    /// The scores counted normal, when the detector has a band.
    public var low: Double?
    /// The band's top.
    public var high: Double?
    /// Whether the day looks normal.
    public var isNormal: Bool
    /// Why not, in words a carer understands ("no activity in the kitchen 12:00–15:00; usually 9").
    public var reason: String?

    /// A verdict.
    public init(score: Double, low: Double? = nil, high: Double? = nil, isNormal: Bool, reason: String? = nil) {
        self.score = score
        self.low = low
        self.high = high
        self.isNormal = isNormal
        self.reason = reason
    }
}

/// Judges whole days against what a resident's days are usually like; learned from
/// their earlier days.
public protocol DayDetector: Sendable {
    /// Its name in reports.
    var name: String { get }
    /// The verdict on `day`.
    func judge(_ day: ActivityDay) -> DayVerdict
}

/// The thesis's method as a day detector: the hourly HMM, the best day and its band (§5.4–5.6).
public struct ThesisDayDetector: DayDetector {
    public let name = "thesis HMM (best day ± σ)"
    /// The learned model; `nil` with fewer than two active days, when every day is normal.
    public let model: ThesisDayModel?

    /// Learns from `days`.
    public init(training days: [ActivityDay]) { model = ThesisDayModel(days: days) }

    public func judge(_ day: ActivityDay) -> DayVerdict {
        guard let model else { return DayVerdict(score: 0, isNormal: true) }
        let observations = day.activeHours(threshold: model.threshold)
        let (score, isNormal) = model.judge(observations)
        let reason: String? = isNormal ? nil
            : score > model.band.upperBound ? "fits the best day better than its band (thesis: too good to be normal)"
            : day.isEmpty ? "no activity all day" : "unlike the usual day (log probability \(Int(score.rounded())), normal \(Int(model.band.lowerBound.rounded())) to \(Int(model.band.upperBound.rounded())))"
        return DayVerdict(score: score, low: model.band.lowerBound, high: model.band.upperBound, isNormal: isNormal, reason: reason)
    }
}
