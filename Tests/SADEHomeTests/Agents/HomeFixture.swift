import Foundation
import SADECore
import SADEHealth
import SADEHome
import SADEHomeSQLite
import SADENotification

/// A home on a manual clock: the SQLite store in memory, the notification outbox with
/// its in-app channel, the alert desk, the home service and a started home agent.
struct HomeFixture {
    /// Monday 2 March 2026, 00:00 UTC: the clock's zero.
    static let epoch = Date(timeIntervalSince1970: 1_772_409_600)

    let clock = ManualClock()
    let platform: Environment
    let store: SQLiteHomeStore
    let app = AppNotificationHub()
    let outbox: NotificationOutbox
    let desk: AlertDesk
    let service: HomeService
    let flat: Flat

    /// A flat with a kitchen (motion, smoke) and a bedroom (motion, fall, a battery door
    /// contact), cared for by `nurse1` and `daughter`, with `rules`.
    init(rules: InactivityRules = InactivityRules()) async throws {
        platform = Environment(name: "home-test-\(UUID().uuidString.prefix(8))", clock: clock)
        store = try SQLiteHomeStore(path: nil)
        let time = OutboxClock(clock: platform.clock, origin: Self.epoch)
        outbox = try NotificationOutbox(directory: nil, channels: [app], clock: time)
        desk = AlertDesk(outbox: outbox)
        service = HomeService(store: store, desk: desk, platform: platform, clock: time)
        let square = { (x: Double) in [PlanPoint(x: x, y: 0), PlanPoint(x: x + 4, y: 0), PlanPoint(x: x + 4, y: 4), PlanPoint(x: x, y: 4)] }
        flat = try await service.createFlat(FlatPlan(
            name: "Flat 1", resident: "p-1", carers: ["nurse1", "daughter"], timeZone: "UTC", inactivity: rules,
            rooms: [
                RoomPlan(name: "Kitchen", type: .kitchen, polygon: square(0), devices: [
                    DevicePlan(name: "Kitchen motion", kind: .motion, position: PlanPoint(x: 1, y: 1), isBatteryPowered: true),
                    DevicePlan(name: "Kitchen smoke", kind: .smoke, position: PlanPoint(x: 2, y: 2)),
                ]),
                RoomPlan(name: "Bedroom", type: .bedroom, polygon: square(4), devices: [
                    DevicePlan(name: "Bedroom motion", kind: .motion, position: PlanPoint(x: 5, y: 1), isBatteryPowered: true),
                    DevicePlan(name: "Fall detector", kind: .fall, position: PlanPoint(x: 6, y: 2), isBatteryPowered: true),
                    DevicePlan(name: "Bedroom window", kind: .windowHandle, position: PlanPoint(x: 8, y: 2), isBatteryPowered: true),
                ]),
            ]))
        await outbox.start()
    }

    /// The device called `objectID`.
    func device(_ objectID: String) -> Device {
        guard let device = flat.devices.first(where: { $0.objectID == objectID }) else { fatalError("no device \(objectID) in the fixture") }
        return device
    }

    /// The date `seconds` after the epoch.
    static func at(_ seconds: Double) -> Date { epoch.addingTimeInterval(seconds) }

    /// Ends the agents and the outbox.
    func stop() async {
        await service.stopAgents()
        await outbox.stop()
        await platform.shutdown()
    }
}

extension ManualClock {
    /// Runs `body`, moving time on by `tick` each time `sleepers` tasks are asleep, until it
    /// returns: for a wait on agents that may have been busy when time last jumped (the
    /// escalation of an alarm also sleeps on the clock, so a count of sleepers can be
    /// reached without them); such an agent sleeps from the new time and needs one more tick.
    func ticking<Result>(by tick: Duration, whileAsleep sleepers: Int, _ body: () async -> Result) async -> Result {
        let ticker = Task {
            while !Task.isCancelled {
                await waitForSleepers(sleepers)
                if !Task.isCancelled { advance(by: tick) }
            }
        }
        defer { ticker.cancel() }
        return await body()
    }
}

/// Waits for the first element of `stream` that `matches`.
func first<Element: Sendable>(_ stream: AsyncStream<Element>, where matches: (Element) -> Bool) async -> Element? {
    for await element in stream where matches(element) { return element }
    return nil
}

extension HomeEvent {
    /// The message, if this is a message event.
    var homeMessage: HomeMessage? {
        if case .message(let message) = self { message } else { nil }
    }
}
