import Foundation
import JWTKit
import SADEMonitoring

/// Signs and checks the bearer tokens the server hands out at login: JWTs signed
/// with HMAC-SHA256, naming the account, its role, when the token expires and the
/// account's credentials stamp when it was issued (when its password or role last
/// changed: a token with another stamp than the account's now is from before a change).
///
/// Expiry is checked against an injected clock, so tests can let tokens expire.
public struct TokenIssuer: Sendable {
    /// What a token says.
    struct Claims: JWTPayload {
        var sub: SubjectClaim
        var exp: ExpirationClaim
        var iat: IssuedAtClaim
        var role: String
        var name: String
        /// The account's ``UserAccount/credentialsChangedAt`` at issue, in seconds since
        /// 1970 (0: never changed); absent from tokens of earlier versions.
        var crd: Double?

        func verify(using algorithm: some JWTAlgorithm) async throws {}  // expiry: checked by the issuer's clock
    }

    private let keys: JWTKeyCollection
    /// How long a token is valid.
    public let lifetime: TimeInterval
    /// The current time.
    public let now: @Sendable () -> Date

    /// The shortest signing secret accepted, in bytes.
    public static let minimumSecretBytes = 32

    /// An issuer signing with `secret` (at least ``minimumSecretBytes`` bytes: a shorter
    /// one could be guessed offline from any token, and tokens forged).
    public init(secret: String, lifetime: TimeInterval = 8 * 3600, now: @escaping @Sendable () -> Date = Date.init) async {
        keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256)
        self.lifetime = lifetime
        self.now = now
    }

    /// A token for `account` and when it expires.
    public func issue(for account: UserAccount) async throws -> (token: String, expiresAt: Date) {
        let issued = now()
        let expires = issued.addingTimeInterval(lifetime)
        let claims = Claims(
            sub: SubjectClaim(value: account.id), exp: ExpirationClaim(value: expires), iat: IssuedAtClaim(value: issued),
            role: account.role.rawValue, name: account.username, crd: Self.stamp(of: account))
        return (try await keys.sign(claims), expires)
    }

    /// The credentials stamp a token of `account` carries: when its password or role
    /// last changed, 0 if never.
    static func stamp(of account: UserAccount) -> Double {
        account.credentialsChangedAt?.timeIntervalSince1970 ?? 0
    }

    /// The account identifier a valid, unexpired token names, when it was issued and
    /// expires, and the credentials stamp it carries (`nil` from earlier versions).
    ///
    /// - Throws: ``APIError`` 401 when the token is malformed, badly signed or expired.
    public func verify(_ token: String) async throws -> (accountID: String, issuedAt: Date, expiresAt: Date, stamp: Double?) {
        let claims: Claims
        do {
            claims = try await keys.verify(token, as: Claims.self)
        } catch {
            throw APIError.unauthenticated("the bearer token is not valid")
        }
        guard claims.exp.value > now() else { throw APIError.unauthenticated("the bearer token has expired: log in again") }
        return (claims.sub.value, claims.iat.value, claims.exp.value, claims.crd)
    }

    /// A random secret for a server that was not given one (tokens then die with it).
    public static func randomSecret() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }
}
