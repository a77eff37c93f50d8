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
        /// What a ticket is for; a login token has none (a ticket is not a bearer token).
        var pur: String?

        func verify(using algorithm: some JWTAlgorithm) async throws {}  // expiry: checked by the issuer's clock
    }

    /// What a live-stream ticket says: whose, until when it may open a stream, until
    /// when the stream may last (the session's end), and its one-time identifier.
    struct TicketClaims: JWTPayload {
        var sub: SubjectClaim
        var exp: ExpirationClaim
        var jti: IDClaim
        var crd: Double
        var pur: String
        /// When the session the ticket was asked for ends, in seconds since 1970.
        var ses: Double

        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    /// How long a live-stream ticket may be used.
    public static let ticketLifetime: TimeInterval = 30
    /// The purpose of live-stream tickets.
    static let eventsPurpose = "events"

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

    /// A one-time ticket opening `account`'s live event stream, in place of its token in
    /// the URL (where logs keep it): good for ``ticketLifetime``, on any node sharing the
    /// secret; the stream lasts until `sessionEndsAt`.
    public func issueTicket(for account: UserAccount, sessionEndsAt: Date) async throws -> (ticket: String, expiresAt: Date) {
        let expires = now().addingTimeInterval(Self.ticketLifetime)
        let claims = TicketClaims(
            sub: SubjectClaim(value: account.id), exp: ExpirationClaim(value: expires), jti: IDClaim(value: UUID().uuidString),
            crd: Self.stamp(of: account), pur: Self.eventsPurpose, ses: sessionEndsAt.timeIntervalSince1970)
        return (try await keys.sign(claims), expires)
    }

    /// What a valid, unexpired live-stream ticket says.
    ///
    /// - Throws: ``APIError`` 401 when the ticket is malformed, badly signed, expired or no ticket.
    func verifyTicket(_ ticket: String) async throws -> (accountID: String, stamp: Double, id: String, sessionEndsAt: Date) {
        let claims: TicketClaims
        do {
            claims = try await keys.verify(ticket, as: TicketClaims.self)
        } catch {
            throw APIError.unauthenticated("the ticket is not valid")
        }
        guard claims.pur == Self.eventsPurpose else { throw APIError.unauthenticated("the ticket is not valid") }
        guard claims.exp.value > now() else { throw APIError.unauthenticated("the ticket has expired: ask for another") }
        return (claims.sub.value, claims.crd, claims.jti.value, Date(timeIntervalSince1970: claims.ses))
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
        guard claims.pur == nil else { throw APIError.unauthenticated("the bearer token is not valid") }  // a ticket
        guard claims.exp.value > now() else { throw APIError.unauthenticated("the bearer token has expired: log in again") }
        return (claims.sub.value, claims.iat.value, claims.exp.value, claims.crd)
    }

    /// A random secret for a server that was not given one (tokens then die with it).
    public static func randomSecret() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }
}
