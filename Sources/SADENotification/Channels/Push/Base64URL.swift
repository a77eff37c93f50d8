import Foundation

/// Base64 with the URL and file name alphabet and no padding (RFC 4648 §5), the
/// encoding of Web Push's keys, tokens and VAPID's JWT.
public enum Base64URL {
    /// `bytes` in base64url, unpadded.
    public static func encode(_ bytes: some Sequence<UInt8>) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The bytes of base64url text, padded or not; `nil` if it is not base64url.
    public static func decode(_ text: String) -> [UInt8]? {
        guard text.utf8.allSatisfy({ $0 < 0x80 && allowed.contains($0) }) else { return nil }
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard = standard.replacingOccurrences(of: "=", with: "")
        guard standard.count % 4 != 1 else { return nil }
        standard += String(repeating: "=", count: (4 - standard.count % 4) % 4)
        return Data(base64Encoded: standard).map { Array($0) }
    }

    private static let allowed = Set(Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=".utf8))
}
