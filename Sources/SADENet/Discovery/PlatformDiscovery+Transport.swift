import Logging
import NIOCore
import NIOPosix
import SADECore

extension PlatformDiscovery {
    /// Advertises `environment` at `transport`'s port and browses for the others: every
    /// platform found is reachable from then on by name alone (`agent@beta`, no address),
    /// and forgotten when it goes. The TXT record lists the service types the platform's
    /// DF holds at each announcement.
    ///
    /// - Parameter addresses: the addresses to advertise; by default the transport's
    ///   advertised host, or its host, or every interface's when that is `0.0.0.0`.
    public static func start(
        for environment: Environment, transport: TCPTransport, addresses: [IPv4Address]? = nil, ttl: UInt32 = 120,
        logger: Logger = Logger(label: "sade.discovery"), onChange: @escaping @Sendable (Change) -> Void = { _ in }
    ) async throws -> PlatformDiscovery {
        let advertisement = Advertisement(
            platform: environment.name, port: transport.port,
            addresses: addresses ?? advertisedAddresses(host: transport.configuration.advertisedHost ?? transport.configuration.host),
            services: { [directory = environment.directory] in
                Array(Set(directory.search(ServiceTemplate()).flatMap { $0.services.map(\.type) })).sorted()
            })
        let discovery = try await start(advertising: advertisement, ttl: ttl, logger: logger) { [weak environment] change in
            switch change {
            case .found(let platform), .updated(let platform): environment?.learn(platform.transportAddresses, ofPlatform: platform.name)
            case .lost(let name): environment?.forget(platform: name)
            }
            onChange(change)
        }
        let directory = environment.directory
        let token = directory.observeChanges { [weak discovery] in discovery?.servicesChanged() }
        discovery.whenStopped { directory.stopObserving(token) }
        return discovery
    }

    /// The IPv4 addresses to advertise for a transport bound to `host`: itself when it is
    /// one (not the wildcard), else every up interface's non-loopback IPv4 address, else
    /// the loopback's.
    public static func advertisedAddresses(host: String) -> [IPv4Address] {
        if host != "0.0.0.0", let address = IPv4Address(host) { return [address] }
        let interfaces = (try? System.enumerateDevices()) ?? []
        var found: [IPv4Address] = []
        var loopback: [IPv4Address] = []
        for device in interfaces {
            guard let address = device.address, case .v4 = address, let text = address.ipAddress, let ip = IPv4Address(text) else { continue }
            if text.hasPrefix("127.") { loopback.append(ip) } else if !found.contains(ip) { found.append(ip) }
        }
        return found.isEmpty ? (loopback.isEmpty ? [IPv4Address(127, 0, 0, 1)] : [loopback[0]]) : found
    }
}
