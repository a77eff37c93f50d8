import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// The webhook channel: an HTTP POST of the notification as JSON to a URL, signed
/// with HMAC-SHA256 when a secret is configured (see ``WebhookSignature``).
///
/// A 2xx answer is a delivery; 4xx (but 408 and 429) is permanent; anything else,
/// and network errors, are retried by the outbox.
public struct WebhookChannel: NotificationChannel {
    /// `webhook` unless named otherwise (several webhooks need distinct names).
    public let name: String
    /// Where to POST.
    public let url: String
    /// The shared secret for the signature; unsigned when `nil`.
    public let secret: String?
    /// How long one request may take.
    public let timeout: Duration
    private let client: HTTPClient

    /// Creates the channel; `client` defaults to the shared AsyncHTTPClient.
    public init(name: String = "webhook", url: String, secret: String? = nil, timeout: Duration = .seconds(10), client: HTTPClient = .shared) {
        self.name = name
        self.url = url
        self.secret = secret
        self.timeout = timeout
        self.client = client
    }

    /// Every notification.
    public func accepts(_ notification: Notice) -> Bool { true }

    /// POSTs the notification; throws ``ChannelError`` unless the answer is 2xx.
    public func deliver(_ notification: Notice) async throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        let body = Array(try encoder.encode(notification))
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: "SADE-notifications")
        if let secret {
            let timestamp = Int(Date().timeIntervalSince1970)
            request.headers.add(name: WebhookSignature.timestampHeader, value: "\(timestamp)")
            request.headers.add(name: WebhookSignature.signatureHeader, value: WebhookSignature.sign(body, timestamp: timestamp, secret: secret))
        }
        request.body = .bytes(ByteBuffer(bytes: body))
        let response: HTTPClientResponse
        do {
            response = try await client.execute(request, timeout: .nanoseconds(Int64(timeout / .nanoseconds(1))))
        } catch {
            throw ChannelError(channel: name, reason: "POST \(url) failed: \(error)")
        }
        _ = try? await response.body.collect(upTo: 64 * 1024)  // read the answer so the connection can be reused
        let status = response.status.code
        guard (200..<300).contains(status) else {
            let permanent = (400..<500).contains(status) && status != 408 && status != 429
            throw ChannelError(channel: name, reason: "POST \(url) answered \(response.status)", isPermanent: permanent)
        }
    }
}
