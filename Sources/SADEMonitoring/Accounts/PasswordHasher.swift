import HummingbirdBcrypt
import NIOPosix

/// Hashes passwords with bcrypt: salted and deliberately slow.
///
/// The cost is the base-2 logarithm of the work: each step doubles the time. Tests
/// use a low cost; servers keep the default. The work runs on NIO's blocking thread
/// pool, never on Swift's cooperative pool, so logins in flight cannot stall the
/// agents or other requests.
public struct PasswordHasher: Hashable, Sendable {
    /// bcrypt's cost factor, 4…31.
    public let cost: UInt8

    /// The default cost for servers (about a quarter of a second per hash here).
    public static let standard = PasswordHasher(cost: 12)
    /// The lowest cost bcrypt allows, for tests and for the demo's published password only.
    public static let fastForTests = PasswordHasher(cost: 4)

    /// A hasher of the given cost, clamped to bcrypt's range.
    public init(cost: UInt8) { self.cost = min(max(cost, 4), 31) }

    /// A new salted hash of `password`.
    public func hash(_ password: String) async -> String {
        let cost = cost
        return await blocking { Bcrypt.hash(password, cost: cost) }
    }

    /// Whether `password` matches `hash`.
    public func verify(_ password: String, against hash: String) async -> Bool {
        await blocking { Bcrypt.verify(password, hash: hash) }
    }

    private func blocking<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        // The singleton pool is never shut down, so `runIfActive` only fails if it were;
        // then the work runs here rather than not at all.
        (try? await NIOThreadPool.singleton.runIfActive(work)) ?? work()
    }
}
