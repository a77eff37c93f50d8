import Crypto
import Foundation

/// Message encryption for Web Push (RFC 8291): the content coding `aes128gcm` of
/// RFC 8188, keyed by an ECDH agreement between a key pair made for the one message
/// and the subscriber's P-256 key, mixed with the subscriber's auth secret.
///
/// The push service sees only the encrypted body; only the browser that subscribed
/// can read it.
public enum WebPushEncryption {
    /// The record size written in the header: the whole message is one record.
    public static let recordSize = 4096
    /// The largest encrypted message: what every push service must accept (RFC 8030 §7.2).
    public static let maximumMessageSize = 4096
    /// The header: salt (16), record size (4), key id length (1), the sender's key (65).
    static let headerSize = 16 + 4 + 1 + 65
    /// The padding delimiter (1) and the AES-GCM tag (16).
    static let overhead = 1 + 16

    /// The most plaintext bytes one message can carry.
    public static var maximumPlaintext: Int { maximumMessageSize - headerSize - overhead }

    /// The encrypted message body for `plaintext` to the subscriber with `keys`.
    ///
    /// - Parameters:
    ///   - salt: 16 random bytes; fixed only by tests reproducing a published example.
    ///   - senderKey: the key pair for this message; fixed only by such tests.
    /// - Throws: ``WebPushError/payloadTooLarge(bytes:limit:)`` when the body would be over
    ///   ``maximumMessageSize``.
    public static func encrypt(
        _ plaintext: [UInt8], to keys: WebPushSubscription.Keys, salt: [UInt8]? = nil,
        senderKey: P256.KeyAgreement.PrivateKey = P256.KeyAgreement.PrivateKey()
    ) throws(WebPushError) -> [UInt8] {
        let size = headerSize + plaintext.count + overhead
        guard size <= maximumMessageSize else { throw .payloadTooLarge(bytes: size, limit: maximumMessageSize) }
        let salt = salt ?? (0..<16).map { _ in UInt8.random(in: .min ... .max) }
        let senderPublic = Array(senderKey.publicKey.x963Representation)
        let shared: SharedSecret
        do { shared = try senderKey.sharedSecretFromKeyAgreement(with: keys.publicKey) } catch { throw .invalidPublicKey }
        // RFC 8291 §3.4: the input keying material binds both public keys and the auth secret.
        let keyInfo = Array("WebPush: info".utf8) + [0] + keys.p256dh + senderPublic
        let inputKey = shared.withUnsafeBytes { secret in
            hkdf(salt: keys.auth, inputKey: Array(secret), info: keyInfo, length: 32)
        }
        let contentKey = hkdf(salt: salt, inputKey: inputKey, info: Array("Content-Encoding: aes128gcm".utf8) + [0], length: 16)
        let nonce = hkdf(salt: salt, inputKey: inputKey, info: Array("Content-Encoding: nonce".utf8) + [0], length: 12)
        // One record, the last: the plaintext, then the delimiter 2, no further padding.
        let sealed: AES.GCM.SealedBox
        do {
            sealed = try AES.GCM.seal(
                plaintext + [2], using: SymmetricKey(data: contentKey), nonce: try AES.GCM.Nonce(data: nonce))
        } catch { preconditionFailure("AES-GCM with a 16-byte key and a 12-byte nonce cannot fail: \(error)") }
        let recordSize = UInt32(Self.recordSize)
        var body = salt
        body += withUnsafeBytes(of: recordSize.bigEndian, Array.init)
        body.append(UInt8(senderPublic.count))
        body += senderPublic
        body += sealed.ciphertext
        body += sealed.tag
        return body
    }

    /// HKDF-SHA-256 (RFC 5869), extract and expand, for at most one block of output.
    private static func hkdf(salt: [UInt8], inputKey: [UInt8], info: [UInt8], length: Int) -> [UInt8] {
        let key = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: inputKey), salt: salt, info: info, outputByteCount: length)
        return key.withUnsafeBytes(Array.init)
    }
}
