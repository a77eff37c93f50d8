import Crypto
import Foundation
import SADENotification

/// What a one-time action token lets its holder do: `action` on `notice`, as `account`,
/// until `expires`.
public struct PushAction: Codable, Hashable, Sendable {
    /// The notice the push was about.
    public let notice: UUID
    /// The account it was pushed to, on whose behalf the action is done.
    public let account: String
    /// What to do: `acknowledge` (an alert).
    public let action: String
    /// When the token was made: a token older than the account's last change of
    /// credentials (a password reset, sessions ended) is refused.
    public let issued: Date
    /// When the token stops being good.
    public let expires: Date
    /// The token's own id, so that it is taken once.
    public let id: String

    private enum CodingKeys: String, CodingKey { case notice = "n", account = "a", action = "x", issued = "i", expires = "e", id = "j" }
}

/// Why an action token was refused.
public enum PushActionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Not a token of this server (malformed, or its signature does not match).
    case invalid
    /// Good once, no longer.
    case expired
    /// Used already.
    case used

    public var description: String {
        switch self {
        case .invalid: "the action token is not one of this server's"
        case .expired: "the action token has expired: open the app to answer"
        case .used: "the action token was used already"
        }
    }
}

/// One-time tokens for the buttons of a push notification: each names one notice, one
/// account and one action, is signed (HMAC-SHA256 with a key derived from the server's
/// VAPID key, so every node sharing that key checks them) and expires after
/// ``lifetime``. The service worker posts the token back; it is the only credential the
/// lock screen has.
public struct PushActionTokens: Sendable {
    /// How long a token is good: long enough to reach for the phone, short enough that a
    /// leaked notification is soon worthless.
    public static let lifetime: TimeInterval = 30 * 60

    private let key: SymmetricKey
    private let used = SpentTokens()

    /// Tokens signed with a key derived from `vapid`.
    public init(vapid: VAPIDKey) {
        key = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: vapid.privateKey.rawRepresentation), info: Array("sade push action tokens".utf8),
            outputByteCount: 32)
    }

    /// A token for `action` on `notice` as `account`, good from `now` for ``lifetime``.
    public func issue(_ action: String, notice: UUID, account: String, now: Date) -> String {
        let id = Base64URL.encode((0..<12).map { _ in UInt8.random(in: .min ... .max) })
        let claim = PushAction(
            notice: notice, account: account, action: action, issued: now.rounded, expires: now.addingTimeInterval(Self.lifetime).rounded, id: id)
        let body = Base64URL.encode((try? Self.encoder.encode(claim)) ?? Data())
        return body + "." + Base64URL.encode(HMAC<SHA256>.authenticationCode(for: Array(body.utf8), using: key))
    }

    /// The action `token` stands for, taking it: it is refused from then on.
    public func take(_ token: String, now: Date) throws(PushActionError) -> PushAction {
        let action = try read(token, now: now)
        guard spend(action, now: now) else { throw .used }
        return action
    }

    /// The action `token` stands for, if it is good and not spent; ``spend(_:now:)`` it
    /// once the action is done.
    public func read(_ token: String, now: Date) throws(PushActionError) -> PushAction {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard token.utf8.count < 1024, parts.count == 2, let signature = Base64URL.decode(String(parts[1])),
            HMAC<SHA256>.isValidAuthenticationCode(signature, authenticating: Array(parts[0].utf8), using: key),
            let bytes = Base64URL.decode(String(parts[0])), let action = try? Self.decoder.decode(PushAction.self, from: Data(bytes))
        else { throw .invalid }
        guard action.expires > now else { throw .expired }
        guard !used.contains(action.id) else { throw .used }
        return action
    }

    /// Marks `action`'s token used; `false` if it was already (two presses at once).
    public func spend(_ action: PushAction, now: Date) -> Bool {
        used.take(action.id, until: action.expires, now: now)
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        return encoder
    }()

    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }()
}

extension Date {
    /// Whole seconds, as the token carries it.
    fileprivate var rounded: Date { Date(timeIntervalSince1970: timeIntervalSince1970.rounded(.down)) }
}
