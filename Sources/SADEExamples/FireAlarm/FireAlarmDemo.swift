import SADECore

/// Runs the fire-alarm example: lights fires one after the other in a simulated
/// building and lets the Alarmed and Fireman agents deal with them.
public struct FireAlarmDemo: Sendable {
    /// Why the demo did not complete.
    public enum Failure: Error, Hashable, Sendable, CustomStringConvertible {
        /// Not every fire was put out in time.
        case timedOut(putOut: Int, of: Int)

        /// A sentence saying what went wrong.
        public var description: String {
            switch self {
            case .timedOut(let putOut, let total): "timed out: only \(putOut) of \(total) fires were put out"
            }
        }
    }

    /// What happened.
    public struct Report: Hashable, Sendable {
        /// Fires that broke out.
        public let firesLit: Int
        /// Fires the Fireman put out.
        public let firesPutOut: Int
    }

    static let rooms = ["kitchen", "living room", "bedroom", "garage", "office"]

    /// How often the Alarmed agent checks the building.
    public var interval: Duration
    /// How many fires to light.
    public var fires: Int
    /// How long to wait, in real time, before giving up.
    public var timeout: Duration

    /// Configures a run.
    public init(interval: Duration = .seconds(1), fires: Int = 3, timeout: Duration = .seconds(60)) {
        self.interval = interval
        self.fires = fires
        self.timeout = timeout
    }

    /// Runs the story on `platform`, telling each step to `write`; returns when
    /// every fire is out and the Alarmed agent has heard so.
    ///
    /// - Throws: ``Failure/timedOut(putOut:of:)`` if that takes longer than ``timeout``.
    public func run(on platform: Environment, write: @escaping @Sendable (String) -> Void) async throws -> Report {
        let building = Building()
        let narrator = Narrator(clock: platform.clock, write: write)
        let fireman = FireAlarmAgents.fireman(on: platform, building: building, narrator: narrator)
        let alarmed = FireAlarmAgents.alarmed(on: platform, building: building, interval: interval, narrator: narrator)
        let alarmedEvents = await alarmed.events()
        try await fireman.start()
        try await alarmed.start()
        narrator.say("Demo", "Alarmed checks the building every \(interval); \(fires) fire(s) to come")

        let total = fires
        let outcome = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                var events = alarmedEvents.makeAsyncIterator()
                for number in stride(from: 1, through: total, by: 1) {
                    let room = Self.rooms[(number - 1) % Self.rooms.count]
                    // Told first: once lit, the agents may handle the fire before this task runs again.
                    narrator.say("Building", "fire \(number) of \(total) breaks out in the \(room)")
                    building.lightFire(in: room)
                    // This fire is over once it is out and the Alarmed agent heard so.
                    while await events.next() != nil {
                        if building.firesPutOut >= number, await alarmed.beliefs[.isInFire] == false { break }
                    }
                }
                return true
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
        await alarmed.stop()
        await fireman.stop()
        let report = Report(firesLit: building.firesLit, firesPutOut: building.firesPutOut)
        guard outcome else { throw Failure.timedOut(putOut: report.firesPutOut, of: total) }
        narrator.say("Demo", "\(report.firesPutOut) of \(total) fire(s) put out")
        return report
    }
}
