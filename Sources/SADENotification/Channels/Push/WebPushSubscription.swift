import Crypto
import Foundation

/// A browser's push subscription (the Push API's `PushSubscription`): where to POST
/// messages for it and the keys to encrypt them with, kept per account and device.
public struct WebPushSubscription: Hashable, Sendable, Codable, Identifiable {
    /// The subscriber's keys: its P-256 public key and its 16-byte auth secret.
    public struct Keys: Hashable, Sendable, Codable {
        /// The uncompressed P-256 point (65 bytes, `0x04 ‖ x ‖ y`).
        public let p256dh: [UInt8]
        /// The auth secret (16 bytes).
        public let auth: [UInt8]
        /// `p256dh` as a key.
        public let publicKey: P256.KeyAgreement.PublicKey

        /// Checks and keeps the keys.
        /// - Throws: ``WebPushError/invalidPublicKey`` or ``WebPushError/invalidAuthSecret``.
        public init(p256dh: [UInt8], auth: [UInt8]) throws(WebPushError) {
            guard p256dh.count == 65, p256dh.first == 4, let key = try? P256.KeyAgreement.PublicKey(x963Representation: p256dh) else {
                throw .invalidPublicKey
            }
            guard auth.count == 16 else { throw .invalidAuthSecret }
            self.p256dh = p256dh
            self.auth = auth
            publicKey = key
        }

        /// Keys from the browser's base64url `keys.p256dh` and `keys.auth`.
        public init(p256dh: String, auth: String) throws(WebPushError) {
            guard let point = Base64URL.decode(p256dh) else { throw .invalidPublicKey }
            guard let secret = Base64URL.decode(auth) else { throw .invalidAuthSecret }
            try self.init(p256dh: point, auth: secret)
        }

        public static func == (lhs: Keys, rhs: Keys) -> Bool { lhs.p256dh == rhs.p256dh && lhs.auth == rhs.auth }
        public func hash(into hasher: inout Hasher) {
            hasher.combine(p256dh)
            hasher.combine(auth)
        }

        private enum CodingKeys: String, CodingKey { case p256dh, auth }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            try self.init(p256dh: try container.decode(String.self, forKey: .p256dh), auth: try container.decode(String.self, forKey: .auth))
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(Base64URL.encode(p256dh), forKey: .p256dh)
            try container.encode(Base64URL.encode(auth), forKey: .auth)
        }
    }

    /// Ours: a digest of the endpoint, so the same browser subscribing again is one subscription.
    public var id: String { Self.id(of: endpoint) }
    /// Whose: the account (user id) it pushes to.
    public var account: String
    /// The push service's URL for this browser.
    public var endpoint: String
    /// The keys.
    public var keys: Keys
    /// What the user calls the device, e.g. "Ward phone".
    public var device: String
    /// When it was made.
    public var createdAt: Date

    /// Creates a subscription; the endpoint must be checked first (``EndpointPolicy``).
    public init(account: String, endpoint: String, keys: Keys, device: String, createdAt: Date) {
        self.account = account
        self.endpoint = endpoint
        self.keys = keys
        self.device = device
        self.createdAt = createdAt
    }

    /// The id of the subscription with `endpoint`.
    public static func id(of endpoint: String) -> String {
        Base64URL.encode(SHA256.hash(data: Array(endpoint.utf8)).prefix(12))
    }

    private enum CodingKeys: String, CodingKey { case account, endpoint, keys, device, createdAt }
}
