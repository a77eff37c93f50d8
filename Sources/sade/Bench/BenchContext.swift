/// What a suite needs to measure: the sizes `--quick` shrinks, the repetitions, and
/// the median-and-spread bookkeeping.
struct BenchContext: Sendable {
    /// Small sizes and fewer runs, so that the whole bench takes seconds (CI).
    let quick: Bool
    /// The suite being run, stamped on its figures.
    let suite: String
    /// The PostgreSQL server given with `--database`, for the suites that need one.
    var database: String? = nil

    /// Measured runs per figure, after the warm-up.
    var runs: Int { quick ? 1 : 5 }
    /// Unmeasured runs first, so that caches, allocator and thread pool are warm.
    var warmups: Int { 1 }

    /// `full` normally, `quick` with `--quick`.
    func size(_ full: Int, quick small: Int) -> Int { quick ? small : full }

    /// Runs `body` ``warmups`` times unmeasured, then ``runs`` times; each run returns
    /// its quantities by name. Returns the statistic of each quantity.
    func measure(_ body: () async throws -> [String: Double]) async throws -> [String: BenchStatistic] {
        for _ in 0..<warmups { _ = try await body() }
        var values: [String: [Double]] = [:]
        for _ in 0..<runs {
            for (name, value) in try await body() { values[name, default: []].append(value) }
        }
        return values.mapValues(BenchStatistic.init)
    }

    /// A figure of this suite from a measured statistic and, optionally, its baseline.
    func figure(
        _ name: String, _ statistic: BenchStatistic?, unit: String, baseline: BenchStatistic? = nil,
        baselineName: String? = nil, target: String? = nil
    ) -> BenchFigure {
        BenchFigure(
            suite: suite, figure: name, value: statistic?.median ?? .nan, unit: unit, spread: statistic?.spread ?? 0,
            baseline: baseline?.median, baselineName: baseline == nil ? nil : baselineName, target: target)
    }
}
