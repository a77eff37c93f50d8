import Foundation
import SADEMonitoring

/// Finds the account behind a bearer token: a login JWT or a device token. The HTTP
/// middleware and the home event bus's auth phase both ask it.
struct Authenticator: Sendable {
    let tokens: TokenIssuer
    let accounts: AccountStore
    let devices: DeviceTokens
    let tickets: SpentTokens

    /// The token's account, and when a login token expires (`nil` for device tokens).
    func account(forToken token: String) async throws -> (account: UserAccount, expiresAt: Date?) {
        if token.hasPrefix(DeviceTokens.secretPrefix) {
            guard let device = try await devices.token(secret: token) else {
                throw APIError.unauthenticated("the device token is not valid or was revoked")
            }
            return (device.account, nil)
        }
        let (id, issuedAt, expiresAt, stamp) = try await tokens.verify(token)
        guard let account = try await accounts.account(id: id) else {
            throw APIError.unauthenticated("the account of this token no longer exists")
        }
        // The stamp the token carries must be the account's now; a token of an earlier
        // version has none and is judged by when it was issued (which a change within the
        // same instant, or a clock's rounding, could not tell apart).
        let current = stamp.map { $0 == TokenIssuer.stamp(of: account) } ?? account.credentialsChangedAt.map { issuedAt >= $0 } ?? true
        guard current else {
            throw APIError.unauthenticated("the bearer token was issued before the account's password or role changed: log in again")
        }
        return (account, expiresAt)
    }

    /// The account a live-stream ticket opens a stream for, once, and when that stream
    /// must end (its session's end).
    func account(forTicket ticket: String) async throws -> (account: UserAccount, expiresAt: Date?) {
        let (id, stamp, ticketID, sessionEndsAt) = try await tokens.verifyTicket(ticket)
        guard let account = try await accounts.account(id: id), stamp == TokenIssuer.stamp(of: account) else {
            throw APIError.unauthenticated("the ticket's account no longer exists or changed its password or role: log in again")
        }
        guard tickets.take(ticketID, until: tokens.now().addingTimeInterval(TokenIssuer.ticketLifetime), now: tokens.now()) else {
            throw APIError.unauthenticated("the ticket was used already: ask for another")
        }
        return (account, sessionEndsAt)
    }
}
