import Foundation

/// A flat's gateway in simulation: carries out every actuator command on the bus at
/// once and reports the device's new state, as a real gateway would after the device
/// confirms.
public struct SimulatedGateway: Sendable {
    /// The home service whose commands it carries out.
    public let home: HomeService

    /// Whether this node's gateway answers now (with several nodes, one does).
    public let isActive: @Sendable () -> Bool

    /// A gateway for `home`'s flats, answering while `when` says so.
    public init(home: HomeService, when isActive: @escaping @Sendable () -> Bool = { true }) {
        self.home = home
        self.isActive = isActive
    }

    /// Carries out commands until cancelled.
    public func run() async {
        for await event in home.events.subscribe(flats: nil) {
            guard case .serviceCalled(let flat, let device, let value, _) = event, isActive() else { continue }
            _ = try? await home.ingest([StateEvent(device: device.id, value: value, time: home.clock.now)], flat: flat)
        }
    }
}
