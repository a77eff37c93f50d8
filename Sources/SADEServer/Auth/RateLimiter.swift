import Foundation
import Hummingbird
import Synchronization

/// Refuses with 429 a client that sends more than its share: a token bucket per
/// client (the caller's account, else the IP address) refilled at `rate` requests per
/// second up to `burst`. Buckets of quiet clients are forgotten.
final class RateLimiter: Sendable {
    struct Bucket {
        var tokens: Double
        var updated: Double
    }

    let rate: Double
    let burst: Double
    private let buckets = Mutex<[String: Bucket]>([:])
    private let now: @Sendable () -> Double

    init(rate: Double, burst: Double, now: @escaping @Sendable () -> Double = { ProcessInfo.processInfo.systemUptime }) {
        self.rate = rate
        self.burst = burst
        self.now = now
    }

    /// Takes one token for `client`; returns the seconds to wait when none is left.
    func take(for client: String) -> Double? {
        let time = now()
        return buckets.withLock { buckets in
            if buckets.count > 10_000 { buckets = buckets.filter { time - $0.value.updated < burst / rate } }
            var bucket = buckets[client] ?? Bucket(tokens: burst, updated: time)
            bucket.tokens = min(burst, bucket.tokens + (time - bucket.updated) * rate)
            bucket.updated = time
            defer { buckets[client] = bucket }
            guard bucket.tokens >= 1 else { return (1 - bucket.tokens) / rate }
            bucket.tokens -= 1
            return nil
        }
    }
}

/// Applies a ``RateLimiter`` to every request: before authentication keyed by the
/// client's address (``byAddress``), after it by the caller's account, else the address.
struct RateLimitMiddleware: RouterMiddleware {
    typealias Context = MonitoringRequestContext
    let limiter: RateLimiter
    var byAddress = false

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let address = "ip:\(context.remoteAddress ?? "unknown")"
        try limiter.admit(byAddress ? address : context.caller.map { "account:\($0.id)" } ?? address)
        return try await next(request, context)
    }
}

extension RateLimiter {
    /// Takes a token for `client` or throws 429 with `Retry-After`.
    func admit(_ client: String) throws {
        guard let wait = take(for: client) else { return }
        var error = APIError(.tooManyRequests, code: "too-many-requests", message: "too many requests: slow down and retry")
        error.headers[.retryAfter] = String(max(1, Int(wait.rounded(.up))))
        throw error
    }
}
