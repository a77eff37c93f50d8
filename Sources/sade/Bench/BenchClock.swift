/// Timing helpers on the monotonic clock.
enum BenchClock {
    /// The clock every suite measures with.
    static let clock = ContinuousClock()

    /// How long `body` took, in seconds.
    static func seconds(_ body: () async throws -> Void) async rethrows -> Double {
        let start = clock.now
        try await body()
        return (clock.now - start).seconds
    }
}

extension Duration {
    /// The duration in microseconds, as a `Double`.
    var microseconds: Double { seconds * 1e6 }
}

/// Percentiles of a list of latencies.
struct Percentiles: Sendable {
    /// The median, in microseconds.
    let p50: Double
    /// The 99th percentile, in microseconds.
    let p99: Double

    /// The percentiles of `latencies` (microseconds); 0 for none.
    init(_ latencies: [Double]) {
        let sorted = latencies.sorted()
        func at(_ fraction: Double) -> Double {
            guard !sorted.isEmpty else { return 0 }
            return sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
        }
        p50 = at(0.50)
        p99 = at(0.99)
    }
}
