import Foundation
import SADECore
import SADEHealth

/// Simulated bedside monitors as a ``NewDataSource``: every ``interval`` on the
/// platform clock, each ``VitalSignSimulator`` takes a reading.
///
/// Readings are taken when the collector pulls: every tick that has come since the
/// last pull gives its samples, dated at the tick, so the data is the same however
/// often the collector runs (at most ``maxTicksPerPull`` ticks are caught up; older
/// ones are skipped, as a monitor that was off would).
public actor SimulatedMonitorSource: NewDataSource {
    /// `simulated-monitors`.
    public nonisolated let name = "simulated-monitors"
    /// The time between readings.
    public let interval: Duration
    /// The most ticks one pull catches up.
    public let maxTicksPerPull: Int
    private let clock: PlatformClock
    private let epoch: Date
    private var simulators: [PatientID: VitalSignSimulator]
    /// The time of the next reading, as elapsed platform time.
    private var nextTick: Duration

    /// Creates the source; the first readings are due one `interval` from now.
    ///
    /// - Parameters:
    ///   - clock: the platform clock (`Environment.clock`).
    ///   - epoch: the date at which `clock` read zero.
    public init(simulators: [VitalSignSimulator], interval: Duration, clock: PlatformClock, epoch: Date, maxTicksPerPull: Int = 120) {
        self.simulators = Dictionary(simulators.map { ($0.patient, $0) }, uniquingKeysWith: { $1 })
        self.interval = interval > .zero ? interval : .seconds(1)
        self.clock = clock
        self.epoch = epoch
        self.maxTicksPerPull = max(1, maxTicksPerPull)
        nextTick = clock.elapsed + self.interval
    }

    /// The patients simulated, sorted.
    public var patients: [PatientID] { simulators.keys.sorted() }

    /// Adds a simulator, or replaces the patient's.
    public func add(_ simulator: VitalSignSimulator) {
        simulators[simulator.patient] = simulator
    }

    /// Stops simulating `patient` (discharged).
    public func remove(_ patient: PatientID) {
        simulators[patient] = nil
    }

    /// Takes the next readings one `interval` from now, skipping those missed meanwhile
    /// (this node did not run the monitors: another node's did).
    public func skipMissedTicks() {
        nextTick = clock.elapsed + interval
    }

    /// The readings of every tick due since the last pull.
    public func newSamples() -> [HealthSample] {
        let now = clock.elapsed
        guard nextTick <= now else { return [] }
        let due = Int(((now - nextTick) / interval).rounded(.down)) + 1
        if due > maxTicksPerPull { nextTick += interval * (due - maxTicksPerPull) }
        var samples: [HealthSample] = []
        let ordered = simulators.values.sorted { $0.patient < $1.patient }
        while nextTick <= now {
            let date = epoch.addingTimeInterval(nextTick.seconds)
            for simulator in ordered { samples += simulator.samples(at: date) }
            nextTick += interval
        }
        return samples
    }

}
