import Crypto
import Foundation
import Synchronization

/// The server's identity to push services (RFC 8292, VAPID): a P-256 key pair whose
/// public half browsers are given when they subscribe (`applicationServerKey`) and
/// whose private half signs a short-lived ES256 JWT on each push request.
public struct VAPIDKey: Sendable {
    /// The file name of the key in a data directory.
    public static let fileName = "vapid-key.pem"
    /// How long a signed token is valid (RFC 8292 allows at most 24 hours).
    public static let tokenLifetime: TimeInterval = 12 * 3600

    /// The signing key.
    public let privateKey: P256.Signing.PrivateKey
    /// Who runs this server, for the push service to contact (`mailto:` or `https:`).
    public let contact: String
    private let tokens = TokenCache()

    /// A key; a new random one when `privateKey` is `nil`.
    public init(privateKey: P256.Signing.PrivateKey = P256.Signing.PrivateKey(), contact: String) {
        self.privateKey = privateKey
        self.contact = contact
    }

    /// The public key as browsers take it: the 65-byte uncompressed point in base64url.
    public var publicKey: String { Base64URL.encode(privateKey.publicKey.x963Representation) }

    /// The key in `directory`'s ``fileName``, made (readable by its owner only) when
    /// there is none yet.
    public static func inDirectory(_ directory: String, contact: String) throws(WebPushError) -> VAPIDKey {
        try inFile((directory as NSString).appendingPathComponent(fileName), contact: contact)
    }

    /// The key in the file at `path`, made (readable by its owner only) when there is none yet.
    public static func inFile(_ path: String, contact: String) throws(WebPushError) -> VAPIDKey {
        if FileManager.default.fileExists(atPath: path) { return try read(from: path, contact: contact) }
        do {
            return try create(at: path, contact: contact)
        } catch {
            // Another process made it meanwhile: theirs is the key.
            guard FileManager.default.fileExists(atPath: path) else { throw error }
            return try read(from: path, contact: contact)
        }
    }

    /// The key in the PEM file at `path`.
    public static func read(from path: String, contact: String) throws(WebPushError) -> VAPIDKey {
        do {
            let pem = try String(contentsOfFile: path, encoding: .utf8)
            return VAPIDKey(privateKey: try P256.Signing.PrivateKey(pemRepresentation: pem), contact: contact)
        } catch { throw .vapidKey(path: path, reason: "\(error)") }
    }

    /// A new key written to `path` (mode 0600, never over an existing file: the file
    /// appears whole or not at all, so nodes starting at once agree on one key).
    public static func create(at path: String, contact: String) throws(WebPushError) -> VAPIDKey {
        let key = VAPIDKey(contact: contact)
        let temporary = path + ".\(UUID().uuidString).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw .vapidKey(path: path, reason: String(cString: strerror(errno))) }
        defer { unlink(temporary) }
        let bytes = Array((key.privateKey.pemRepresentation + "\n").utf8)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        guard written == bytes.count, synced else { throw .vapidKey(path: path, reason: "could not be written") }
        guard link(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            throw .vapidKey(path: path, reason: errno == EEXIST ? "exists already" : reason)
        }
        return key
    }

    /// The `Authorization` header for a push to `endpoint`: `vapid t=<JWT>, k=<public key>`.
    /// Tokens are reused per push service until half their lifetime has passed.
    public func authorization(for endpoint: URL, now: Date = Date()) -> String {
        let audience = Self.audience(of: endpoint)
        if let token = tokens.token(for: audience, at: now) { return "vapid t=\(token), k=\(publicKey)" }
        let expiry = now.addingTimeInterval(Self.tokenLifetime)
        let token = signedToken(audience: audience, expiry: expiry)
        tokens.keep(token, for: audience, renewAfter: now.addingTimeInterval(Self.tokenLifetime / 2))
        return "vapid t=\(token), k=\(publicKey)"
    }

    /// The JWT `{"aud": audience, "exp": expiry, "sub": contact}` signed with ES256.
    func signedToken(audience: String, expiry: Date) -> String {
        let header = Base64URL.encode(Array(#"{"typ":"JWT","alg":"ES256"}"#.utf8))
        let claims: [String: Any] = ["aud": audience, "exp": Int(expiry.timeIntervalSince1970), "sub": contact]
        let claimsJSON = (try? JSONSerialization.data(withJSONObject: claims, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        let signingInput = header + "." + Base64URL.encode(claimsJSON)
        // ES256's signature is r ‖ s, 64 bytes: swift-crypto's raw representation.
        let signature = (try? privateKey.signature(for: Array(signingInput.utf8)))?.rawRepresentation ?? Data()
        return signingInput + "." + Base64URL.encode(signature)
    }

    /// The origin of the push service: `https://host[:port]`.
    static func audience(of endpoint: URL) -> String {
        var origin = "\(endpoint.scheme?.lowercased() ?? "https")://\(endpoint.host ?? "")"
        if let port = endpoint.port, port != 443 { origin += ":\(port)" }
        return origin
    }
}

/// Signed tokens per audience, reused while fresh.
private final class TokenCache: Sendable {
    private let entries = Mutex<[String: (token: String, renewAfter: Date)]>([:])

    func token(for audience: String, at now: Date) -> String? {
        entries.withLock { entries in entries[audience].flatMap { $0.renewAfter > now ? $0.token : nil } }
    }

    func keep(_ token: String, for audience: String, renewAfter: Date) {
        entries.withLock { $0[audience] = (token, renewAfter) }
    }
}
