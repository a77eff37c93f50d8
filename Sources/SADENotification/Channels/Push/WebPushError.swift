/// Why a Web Push message could not be made or a subscription was refused.
public enum WebPushError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The subscription's endpoint is not an `https` URL.
    case endpointNotHTTPS(String)
    /// The endpoint's host resolves to a loopback, private or link-local address, and
    /// private endpoints are not allowed.
    case endpointNotPublic(host: String)
    /// The endpoint's host does not resolve (now: a push is tried again later).
    case endpointNotResolved(host: String)
    /// The `p256dh` key is not a 65-byte uncompressed P-256 point.
    case invalidPublicKey
    /// The `auth` secret is not 16 bytes.
    case invalidAuthSecret
    /// The encrypted message would exceed what every push service must accept.
    case payloadTooLarge(bytes: Int, limit: Int)
    /// The VAPID key file cannot be read or written.
    case vapidKey(path: String, reason: String)

    public var description: String {
        switch self {
        case .endpointNotHTTPS(let endpoint): "the push endpoint must be an https URL: \(endpoint)"
        case .endpointNotPublic(let host): "the push endpoint's host \(host) is not a public address"
        case .endpointNotResolved(let host): "the push endpoint's host \(host) does not resolve"
        case .invalidPublicKey: "p256dh must be a 65-byte uncompressed P-256 public key, base64url"
        case .invalidAuthSecret: "auth must be a 16-byte secret, base64url"
        case .payloadTooLarge(let bytes, let limit): "the encrypted push message is \(bytes) bytes, over the limit of \(limit)"
        case .vapidKey(let path, let reason): "the VAPID key at \(path): \(reason)"
        }
    }
}
