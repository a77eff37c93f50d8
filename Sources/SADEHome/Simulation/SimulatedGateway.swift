import Foundation

/// A flat's gateway in simulation: carries out every actuator command on the bus at
/// once and reports the device's new state, as a real gateway would after the device
/// confirms.
public struct SimulatedGateway: Sendable {
    /// The home service whose commands it carries out.
    public let home: HomeService

    /// A gateway for `home`'s flats.
    public init(home: HomeService) { self.home = home }

    /// Carries out commands until cancelled.
    public func run() async {
        for await event in home.events.subscribe(flats: nil) {
            guard case .serviceCalled(let flat, let device, let value, _) = event else { continue }
            _ = try? await home.ingest([StateEvent(device: device.id, value: value, time: home.clock.now)], flat: flat)
        }
    }
}
