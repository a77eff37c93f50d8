import NIOCore
import Synchronization

/// The connections other platforms opened to this one, so that shutdown can close them.
final class InboundConnections: Sendable {
    private let channels = Mutex<[ObjectIdentifier: any Channel]>([:])

    /// Remembers `channel` until it closes.
    func track(_ channel: any Channel) {
        let key = ObjectIdentifier(channel)
        channels.withLock { $0[key] = channel }
        channel.closeFuture.whenComplete { [self] _ in
            _ = channels.withLock { $0.removeValue(forKey: key) }
        }
    }

    /// Closes every tracked connection.
    func closeAll() async {
        for channel in channels.withLock({ Array($0.values) }) {
            try? await channel.close()
        }
    }
}
