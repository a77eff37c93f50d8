import SADENotification

/// How the monitoring system pushes notices to its users' phones (Web Push).
public struct PushConfiguration: Sendable {
    /// The server's VAPID key (the data directory's, or a file every node shares).
    public var key: VAPIDKey
    /// Which push endpoints may be subscribed and pushed to.
    public var policy: EndpointPolicy
    /// Certificate authorities trusted besides the system's (a private push service).
    public var trustedCAFile: String?

    /// A configuration.
    public init(key: VAPIDKey, policy: EndpointPolicy = EndpointPolicy(), trustedCAFile: String? = nil) {
        self.key = key
        self.policy = policy
        self.trustedCAFile = trustedCAFile
    }
}
