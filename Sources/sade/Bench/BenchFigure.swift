/// One figure a suite reports: the median over the measured runs, its spread, and the
/// same quantity measured for a baseline in the same run (if the suite has one).
struct BenchFigure: Sendable {
    /// The suite, e.g. `pingpong`.
    let suite: String
    /// What is measured, e.g. `messages/s, 1000 pairs`.
    let figure: String
    /// The median over the runs.
    let value: Double
    /// The unit of ``value`` and ``baseline``.
    let unit: String
    /// (largest − smallest) ÷ median over the runs; 0 for a single run.
    let spread: Double
    /// The baseline's median, measured in the same run, or `nil`.
    let baseline: Double?
    /// What the baseline is, e.g. `bare actor hop`.
    let baselineName: String?
    /// The target from the issue, for the table (e.g. `≥ 3,000,000`), or `nil`.
    let target: String?

    /// ``value`` ÷ ``baseline``: above 1 means more than the baseline (better for a
    /// rate, worse for a time or a size).
    var ratio: Double? {
        guard let baseline, baseline != 0 else { return nil }
        return value / baseline
    }
}

/// The median and spread of one quantity over several runs.
struct BenchStatistic: Sendable {
    /// The median of the runs.
    let median: Double
    /// (largest − smallest) ÷ median.
    let spread: Double

    /// The statistic of `values` (at least one).
    init(_ values: [Double]) {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        median = sorted.isEmpty ? .nan : sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        spread = sorted.count < 2 || median == 0 ? 0 : (sorted.last! - sorted.first!) / abs(median)
    }
}
