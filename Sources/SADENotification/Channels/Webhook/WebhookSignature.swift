import Crypto
import Foundation

/// How webhook receivers check that a notification came from this platform: the
/// `X-SADE-Signature` header is `sha256=` and the hex HMAC-SHA256, keyed with the
/// shared secret, of the `X-SADE-Timestamp` header, a `.`, and the body.
/// Signing the timestamp lets receivers refuse replayed old requests.
public enum WebhookSignature {
    /// The header with the signature.
    public static let signatureHeader = "X-SADE-Signature"
    /// The header with the time of signing, seconds since 1970.
    public static let timestampHeader = "X-SADE-Timestamp"

    /// `sha256=<hex>` for `body` sent at `timestamp`.
    public static func sign(_ body: [UInt8], timestamp: Int, secret: String) -> String {
        let key = SymmetricKey(data: Data(secret.utf8))
        let mac = HMAC<SHA256>.authenticationCode(for: Array("\(timestamp).".utf8) + body, using: key)
        return "sha256=" + mac.map { String(format: "%02x", $0) }.joined()
    }

    /// Whether `signature` is right for `body` and `timestamp` (compared in constant time).
    public static func verify(_ signature: String, body: [UInt8], timestamp: Int, secret: String) -> Bool {
        guard signature.hasPrefix("sha256="), let expected = Data(hex: String(signature.dropFirst(7))) else { return false }
        let key = SymmetricKey(data: Data(secret.utf8))
        return HMAC<SHA256>.isValidAuthenticationCode(expected, authenticating: Array("\(timestamp).".utf8) + body, using: key)
    }
}

extension Data {
    /// Bytes from lowercase or uppercase hex; `nil` if the text is not hex.
    fileprivate init?(hex: String) {
        guard hex.count.isMultiple(of: 2) else { return nil }
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            guard let byte = UInt8(hex[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        self.init(bytes)
    }
}
