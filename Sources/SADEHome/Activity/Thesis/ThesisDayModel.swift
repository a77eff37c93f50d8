import Foundation

/// The thesis's day-level judgement (§5.5.1): the HMM learned from the days, the "best
/// day" — the one whose most likely state sequence the other days fit best on average —
/// and the band of normal days, that day's mean log probability ± one standard deviation.
public struct ThesisDayModel: Hashable, Sendable {
    /// The learned model.
    public var model: HourlyHMM
    /// The best day's index among the days it learned from.
    public var bestDay: Int
    /// Its most likely state sequence.
    public var bestPath: [Int]
    /// Mean of the other days' log probabilities along ``bestPath``.
    public var mean: Double
    /// Their standard deviation.
    public var deviation: Double
    /// The hourly threshold of activity.
    public var threshold: Int

    /// Learns from `days` (days without any active hour are skipped, as the thesis does);
    /// `nil` when fewer than two days have activity.
    public init?(days: [ActivityDay], threshold: Int = ActivityDay.activeThreshold) {
        self.init(observations: days.map { $0.activeHours(threshold: threshold) }, threshold: threshold)
    }

    /// Learns from hourly observations.
    public init?(observations: [[Bool]], threshold: Int = ActivityDay.activeThreshold) {
        let active = observations.indices.filter { observations[$0].contains(true) }
        guard active.count >= 2 else { return nil }
        let model = HourlyHMM.learn(from: active.map { observations[$0] })
        var best: (day: Int, path: [Int], mean: Double, deviation: Double)?
        for candidate in active {
            let path = model.viterbi(observations[candidate]).path
            let scores = active.filter { $0 != candidate }.map { model.logProbability(observations[$0], along: path) }
            let mean = scores.reduce(0, +) / Double(scores.count)
            let deviation = (scores.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(scores.count)).squareRoot()
            if mean > best?.mean ?? -.infinity { best = (candidate, path, mean, deviation) }
        }
        guard let best else { return nil }
        self.model = model
        self.bestDay = best.day
        self.bestPath = best.path
        self.mean = best.mean
        self.deviation = best.deviation
        self.threshold = threshold
    }

    /// The band of normal log probabilities.
    public var band: ClosedRange<Double> { (mean - deviation)...(mean + deviation) }

    /// How `day` fits: its log probability along the best day's path, and whether it is in the band.
    public func judge(_ observations: [Bool]) -> (score: Double, isNormal: Bool) {
        let score = model.logProbability(observations, along: bestPath)
        return (score, band.contains(score))
    }
}
