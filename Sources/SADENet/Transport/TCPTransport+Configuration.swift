import Foundation
import SADEACL

extension TCPTransport {
    /// How a TCP transport listens, connects and queues. The defaults suit a platform
    /// on a local network; tests shorten the times.
    public struct Configuration: Sendable {
        /// The interface to listen on; `127.0.0.1` by default, `0.0.0.0` for all.
        public var host: String
        /// The port to listen on; 0 picks a free one (see ``TCPTransport/port``).
        public var port: Int
        /// The host other platforms should use to reach this one, if not ``host``.
        /// When listening on every interface (`0.0.0.0`, `::`) without it, the
        /// machine's host name is advertised.
        public var advertisedHost: String?
        /// Messages queued or unacknowledged towards one platform before senders get
        /// `queue-full` (or wait, with ``SADECore/Agent/sendWhenReady(_:)``).
        public var queueCapacity: Int
        /// The largest encoded message sent; larger ones are returned to their sender as
        /// `rejected` at once. Keep it no larger than what the codec of the other
        /// platforms accepts (1 MiB for the FIPA string codec by default).
        public var maxMessageBytes: Int
        /// The largest frame accepted from a peer: the message size limit plus room
        /// for the receiver's name.
        public var maxFrameBytes: Int
        /// How long one connection attempt may take.
        public var connectTimeout: Duration
        /// Consecutive failed connection attempts before queued messages are returned
        /// to their senders as `unreachable`.
        public var connectAttempts: Int
        /// The wait before the first reconnection; it doubles each time, with jitter.
        public var initialBackoff: Duration
        /// The longest wait between reconnections.
        public var maximumBackoff: Duration
        /// How long a message may wait for the other platform to take it before it
        /// is returned to its sender as `timeout`.
        public var deliveryTimeout: Duration
        /// How long ``TCPTransport/shutdown()`` waits for queued messages to be taken.
        public var drainTimeout: Duration
        /// How messages are written on the wire; the FIPA string form by default.
        public var codec: any ACLCodec
        /// Mutual TLS with the other platforms, when set: see ``PlatformTLS``.
        public var tls: PlatformTLS?

        /// Creates a configuration; every parameter has a default.
        public init(
            host: String = "127.0.0.1",
            port: Int = 0,
            advertisedHost: String? = nil,
            queueCapacity: Int = 4096,
            maxMessageBytes: Int = ACLParseLimits.default.maxMessageBytes,
            maxFrameBytes: Int = ACLParseLimits.default.maxMessageBytes + 1024,
            connectTimeout: Duration = .seconds(5),
            connectAttempts: Int = 5,
            initialBackoff: Duration = .milliseconds(50),
            maximumBackoff: Duration = .seconds(2),
            deliveryTimeout: Duration = .seconds(30),
            drainTimeout: Duration = .seconds(5),
            codec: any ACLCodec = ACLStringCodec(),
            tls: PlatformTLS? = nil
        ) {
            self.host = host
            self.port = port
            self.advertisedHost = advertisedHost
            self.queueCapacity = queueCapacity
            self.maxMessageBytes = maxMessageBytes
            self.maxFrameBytes = maxFrameBytes
            self.connectTimeout = connectTimeout
            self.connectAttempts = connectAttempts
            self.initialBackoff = initialBackoff
            self.maximumBackoff = maximumBackoff
            self.deliveryTimeout = deliveryTimeout
            self.drainTimeout = drainTimeout
            self.codec = codec
            self.tls = tls
        }

        /// The host put in this platform's addresses.
        var hostToAdvertise: String {
            if let advertisedHost { return advertisedHost }
            return ["0.0.0.0", "::", ""].contains(host) ? ProcessInfo.processInfo.hostName : host
        }

        /// The wait before reconnection attempt `attempt` (1-based): exponential, capped,
        /// with up to 25 % random jitter so that many platforms do not retry in step.
        func backoff(beforeAttempt attempt: Int) -> Duration {
            let exponential = initialBackoff * (1 << min(attempt - 1, 20))
            let capped = min(exponential, maximumBackoff)
            return capped + capped * Double.random(in: 0..<0.25)
        }
    }
}
