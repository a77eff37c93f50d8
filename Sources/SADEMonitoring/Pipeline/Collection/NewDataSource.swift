import SADEHealth

/// Where new vital signs come from (SADE4Health's `DAONewData` hot spot): something
/// the ``CollectorAgent`` pulls samples from on every cycle and saves to the health
/// store — simulated monitors (``SimulatedMonitorSource``), an in-memory ingestion
/// queue (``SampleQueue``), a bridge to another system.
///
/// The health store itself is the pipeline's other source: samples the API saved
/// directly (durable on acceptance) are read back by anchored queries, so every
/// sample — pushed or saved — is evaluated once, from the store.
public protocol NewDataSource: Sendable {
    /// A name for logs, e.g. `simulated-monitors`.
    var name: String { get }
    /// The samples produced since the last call; the source forgets them once
    /// returned, and the collector saves them.
    func newSamples() async throws -> [HealthSample]
}

/// A bounded in-memory ingestion queue: producers ``enqueue(_:)`` samples, the
/// collector takes them on its next cycle. When full, the oldest samples are dropped
/// (and counted), so a stalled collector cannot exhaust memory.
public actor SampleQueue: NewDataSource {
    /// `sample-queue` unless named otherwise.
    public nonisolated let name: String
    /// The most samples kept waiting.
    public let capacity: Int
    private var waiting: [HealthSample] = []
    /// Samples dropped because the queue was full.
    public private(set) var droppedCount = 0

    /// Creates an empty queue.
    public init(name: String = "sample-queue", capacity: Int = 100_000) {
        self.name = name
        self.capacity = max(1, capacity)
    }

    /// Adds samples for the next collection.
    public func enqueue(_ samples: [HealthSample]) {
        waiting += samples
        if waiting.count > capacity {
            droppedCount += waiting.count - capacity
            waiting.removeFirst(waiting.count - capacity)
        }
    }

    /// Takes every waiting sample.
    public func newSamples() -> [HealthSample] {
        defer { waiting = [] }
        return waiting
    }
}
