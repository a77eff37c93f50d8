import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOSSL
import Synchronization

/// The Web Push channel: a notice to app users goes, encrypted (RFC 8291) and signed
/// for (RFC 8292), to the push service of every browser they subscribed with — to
/// their phone's lock screen, whether the app is open or not.
///
/// Per subscription the push service's answer decides: 2xx, delivered; 404 or 410, the
/// subscription is gone and removed; 429 and 5xx (or no answer), tried again by the
/// outbox no sooner than the service's `Retry-After`; anything else, refused for good.
/// A retry goes only to the subscriptions that have not taken the notice yet.
public struct WebPushChannel: NotificationChannel {
    /// What a push to one account carries besides the notice: where the app opens and
    /// its buttons (with their one-time tokens).
    public typealias Decoration = @Sendable (_ notice: Notice, _ account: String) async -> (url: String, actions: [WebPushMessage.Action])

    /// `push`.
    public let name = "push"
    /// Whom to push to.
    public let subscriptions: any PushSubscriptionRecords
    /// Who we are to push services.
    public let key: VAPIDKey
    /// Which endpoints may be pushed to.
    public let policy: EndpointPolicy
    private let decoration: Decoration
    private let accounts: @Sendable (String) async throws -> [String]
    private let client: HTTPClient
    private let timeout: Duration
    private let progress = PushProgress()
    private let logger: Logger

    /// Creates the channel and its HTTP client (stop it with ``shutdown()``).
    ///
    /// - Parameters:
    ///   - trustedCAFile: a PEM file of certificate authorities trusted besides the
    ///     system's (a private push service; the tests').
    ///   - accounts: the accounts (whose subscriptions are kept) a notice's user
    ///     recipient stands for; the recipient's own by default.
    public init(
        subscriptions: any PushSubscriptionRecords, key: VAPIDKey, policy: EndpointPolicy = EndpointPolicy(), trustedCAFile: String? = nil,
        timeout: Duration = .seconds(10), logger: Logger = Logger(label: "sade.push"),
        decoration: @escaping Decoration = { _, _ in ("/", []) }, accounts: @escaping @Sendable (String) async throws -> [String] = { [$0] }
    ) {
        self.accounts = accounts
        self.subscriptions = subscriptions
        self.key = key
        self.policy = policy
        self.timeout = timeout
        self.decoration = decoration
        self.logger = logger
        var tls = TLSConfiguration.makeClientConfiguration()
        if let trustedCAFile { tls.additionalTrustRoots = [.file(trustedCAFile)] }
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls, redirectConfiguration: .disallow)
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 16
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// Notices for app users that are worth a person's attention (not silent ones).
    public func accepts(_ notification: Notice) -> Bool {
        notification.severity >= .information && !notification.users.isEmpty
    }

    /// Pushes `notification` to every subscription of its users that has not taken it yet.
    public func deliver(_ notification: Notice) async throws {
        var targets: [WebPushSubscription] = []
        do {
            var seen: Set<String> = []
            for user in notification.users {
                for account in try await accounts(user) where seen.insert(account).inserted {
                    targets += try await subscriptions.subscriptions(of: account)
                }
            }
        } catch {
            throw ChannelError(channel: name, reason: "the push subscriptions could not be read: \(error)")
        }
        let done = progress.delivered(notification.id)
        targets.removeAll { done.contains($0.id) }
        var decorations: [String: (url: String, actions: [WebPushMessage.Action])] = [:]
        for account in Set(targets.map(\.account)) { decorations[account] = await decoration(notification, account) }
        let outcomes = await withTaskGroup(of: (String, PushOutcome).self) { group in
            for target in targets {
                let decorated = decorations[target.account] ?? ("/", [])
                let message = WebPushMessage(notice: notification, url: decorated.url, actions: decorated.actions)
                group.addTask { (target.id, await self.push(message, to: target)) }
            }
            return await group.reduce(into: [(String, PushOutcome)]()) { $0.append($1) }
        }
        try await settle(notification, outcomes)
    }

    /// Records what each push did; throws for the outbox when any must be tried again
    /// (or was refused for good, when none must).
    private func settle(_ notification: Notice, _ outcomes: [(String, PushOutcome)]) async throws {
        var retry: [String] = [], refused: [String] = []
        var wait: Duration?
        for (id, outcome) in outcomes {
            switch outcome {
            case .delivered:
                progress.record(notification.id, delivered: id)
            case .gone:
                logger.info("push subscription gone; removed", metadata: ["subscription": "\(id)"])
                _ = try? await subscriptions.remove(id: id)
            case .retry(let reason, let after):
                retry.append(reason)
                if let after { wait = max(wait ?? after, after) }
            case .refused(let reason):
                refused.append(reason)
            }
        }
        if !retry.isEmpty {
            throw ChannelError(channel: name, reason: (retry + refused).joined(separator: "; "), retryAfter: wait)
        }
        progress.finish(notification.id)
        if !refused.isEmpty { throw ChannelError(channel: name, reason: refused.joined(separator: "; "), isPermanent: true) }
    }

    /// One push to one subscription.
    func push(_ message: WebPushMessage, to subscription: WebPushSubscription) async -> PushOutcome {
        guard let endpoint = URL(string: subscription.endpoint) else { return .gone }
        do {
            try await policy.checkOffThePool(subscription.endpoint)
        } catch {
            // A name that does not resolve now may later; one that resolves to a private address is refused.
            if case .endpointNotResolved = error { return .retry("\(error)", after: nil) }
            return .refused("\(error)")
        }
        let body: [UInt8]
        do {
            body = try WebPushEncryption.encrypt(message.encoded(), to: subscription.keys)
        } catch {
            return .refused("\(error)")
        }
        var request = HTTPClientRequest(url: subscription.endpoint)
        request.method = .POST
        request.headers.add(name: "TTL", value: "\(message.timeToLive)")
        request.headers.add(name: "Urgency", value: WebPushMessage.urgency(for: message.severity))
        request.headers.add(name: "Topic", value: message.tag)
        request.headers.add(name: "Content-Encoding", value: "aes128gcm")
        request.headers.add(name: "Content-Type", value: "application/octet-stream")
        request.headers.add(name: "Authorization", value: key.authorization(for: endpoint))
        request.body = .bytes(ByteBuffer(bytes: body))
        let response: HTTPClientResponse
        do {
            response = try await client.execute(request, timeout: .nanoseconds(Int64(timeout / .nanoseconds(1))))
        } catch {
            return .retry("POST \(endpoint.host ?? "?") failed: \(error)", after: nil)
        }
        _ = try? await response.body.collect(upTo: 16 * 1024)  // read the answer so the connection can be reused
        let status = Int(response.status.code)
        switch status {
        case 200..<300: return .delivered
        case 404, 410: return .gone
        case 429, 500..<600:
            return .retry("\(endpoint.host ?? "?") answered \(response.status)", after: response.headers.first(name: "Retry-After").flatMap(Self.retryAfter))
        default:
            // 403 is most often a subscription made with another VAPID key: it needs the user to subscribe again.
            logger.error("push refused", metadata: ["subscription": "\(subscription.id)", "status": "\(status)"])
            return .refused("\(endpoint.host ?? "?") answered \(response.status)")
        }
    }

    /// A `Retry-After` value: seconds, or an HTTP date.
    static func retryAfter(_ value: String) -> Duration? {
        if let seconds = Int(value.trimmingCharacters(in: .whitespaces)), seconds >= 0 { return .seconds(min(seconds, 86_400)) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: value) else { return nil }
        return .seconds(min(max(0, Int(date.timeIntervalSinceNow.rounded(.up))), 86_400))
    }

    /// Stops the HTTP client.
    public func shutdown() async {
        try? await client.shutdown()
    }
}

/// What one push did.
enum PushOutcome: Sendable {
    case delivered
    case gone
    case retry(String, after: Duration?)
    case refused(String)
}

/// Which subscriptions took each notice still being delivered, so that a retry goes
/// only to the others (kept in memory: after a restart a retry may push a notice again,
/// which its topic makes replace, not repeat, the one on the phone).
private final class PushProgress: Sendable {
    /// Per notice, the subscriptions that took it and when the last did: a notice whose
    /// delivery died or went to another node is forgotten after a day.
    private let delivered = Mutex<[UUID: (subscriptions: Set<String>, at: Date)]>([:])

    func delivered(_ notice: UUID) -> Set<String> { delivered.withLock { $0[notice]?.subscriptions ?? [] } }

    func record(_ notice: UUID, delivered subscription: String) {
        let now = Date()
        delivered.withLock { delivered in
            if delivered.count > 1_000 { delivered = delivered.filter { now.timeIntervalSince($0.value.at) < 86_400 } }
            var entry = delivered[notice] ?? ([], now)
            entry.subscriptions.insert(subscription)
            entry.at = now
            delivered[notice] = entry
        }
    }

    func finish(_ notice: UUID) { delivered.withLock { _ = $0.removeValue(forKey: notice) } }
}
