/// A benchmark workload: runs itself through a ``BenchContext`` and returns its figures.
protocol BenchSuite: Sendable {
    /// The name given to `--suite`.
    var name: String { get }
    /// One line saying what the workload is.
    var workload: String { get }
    /// Whether the suite needs something outside this process beyond a second `sade`
    /// (a running server): left out of a plain `sade bench` unless named.
    var isOnDemand: Bool { get }
    /// Measures the workload and its baselines.
    func run(in context: BenchContext) async throws -> [BenchFigure]
}

extension BenchSuite {
    /// Most suites run with every `sade bench`.
    var isOnDemand: Bool { false }
}

/// Every suite, in the order `sade bench` runs them.
enum BenchSuites {
    static let all: [any BenchSuite] = [
        SpawnSuite(), PingPongSuite(), RingSuite(), BDISuite(), ContractNetSuite(), ACLSuite(), IngestSuite(), TCPSuite(),
        HTTPIngestSuite(), HomeSuite(), PushSuite(), PostgresIngestSuite(), PostgresNodesSuite(), PostgresHTTPSuite(), XMPPSuite(),
    ]

    /// The suite called `name`.
    static func named(_ name: String) -> (any BenchSuite)? { all.first { $0.name == name } }
}
