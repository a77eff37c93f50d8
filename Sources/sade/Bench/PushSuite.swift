import AsyncHTTPClient
import Crypto
import Foundation
import Hummingbird
import Logging
import HummingbirdTLS
import NIOCore
import NIOSSL
import SADENotification

/// `push`: one notice to 1,000 browsers' subscriptions through the Web Push channel —
/// each message encrypted for its browser (RFC 8291: one P-256 key agreement per
/// message), signed for (VAPID) and POSTed over TLS to a push service in this process
/// that answers 201. Baseline: the same number of POSTs of the same size by the same
/// HTTP client, with neither encryption nor signature.
struct PushSuite: BenchSuite {
    let name = "push"
    let workload = "one notice pushed to 1,000 subscriptions (RFC 8291 encryption, VAPID) over TLS to an in-process push service; baseline: plain POSTs"

    func run(in context: BenchContext) async throws -> [BenchFigure] {
        guard let certificates = await BenchCertificates.make(), let server = await certificates.server(for: "localhost") else {
            throw BenchError.unexpected("openssl could not make the push service's certificate")
        }
        defer { certificates.remove() }
        let service = try await PushService.start(certificate: server.certificate, key: server.key)
        defer { service.stop() }
        let count = context.size(1_000, quick: 50)
        let records = try SQLiteOutboxStore(directory: nil).pushSubscriptions
        var keys: [WebPushSubscription.Keys] = []
        for index in 0..<count {
            let browser = P256.KeyAgreement.PrivateKey()
            let subscriptionKeys = try WebPushSubscription.Keys(
                p256dh: Array(browser.publicKey.x963Representation), auth: (0..<16).map { _ in UInt8.random(in: .min ... .max) })
            keys.append(subscriptionKeys)
            try await records.save(WebPushSubscription(
                account: "nurse1", endpoint: "https://localhost:\(service.port)/push/\(index)", keys: subscriptionKeys, device: "phone \(index)",
                createdAt: Date()))
        }
        let channel = WebPushChannel(
            subscriptions: records, key: VAPIDKey(contact: "mailto:bench@localhost"), policy: EndpointPolicy(allowsPrivateAddresses: true),
            trustedCAFile: certificates.authority)
        defer { Task { await channel.shutdown() } }
        let notice = { Notice(recipients: [.user("nurse1")], severity: .alarm, title: "NEWS2 9 (high)", body: "Where: COVID ward, bed 3") }
        let sample = WebPushMessage(notice: notice(), url: "/#/alerts", actions: [.init(action: "acknowledge", title: "Acknowledge", token: String(repeating: "t", count: 180))])
        let size = try WebPushEncryption.encrypt(sample.encoded(), to: keys[0]).count

        let pushed = try await context.measure {
            let seconds = try await BenchClock.seconds { try await channel.deliver(notice()) }
            return ["rate": Double(count) / seconds]
        }
        let client = Self.client(authority: certificates.authority)
        let plain: [String: BenchStatistic]
        do {
            plain = try await context.measure {
                ["rate": Double(count) / (try await Self.plainPosts(count, size: size, port: service.port, client: client))]
            }
        } catch {
            try? await client.shutdown()
            throw error
        }
        try await client.shutdown()
        let encryptions = try await context.measure {
            let plaintext = sample.encoded()
            let seconds = try await BenchClock.seconds {
                for index in 0..<count { _ = try WebPushEncryption.encrypt(plaintext, to: keys[index % keys.count]) }
            }
            return ["rate": Double(count) / seconds]
        }
        return [
            context.figure("pushes/s, one notice to \(count) subscriptions (\(size) B each)", pushed["rate"], unit: "pushes/s",
                           baseline: plain["rate"], baselineName: "plain HTTPS POSTs", target: "≥ 2,000"),
            context.figure("messages encrypted/s, one thread", encryptions["rate"], unit: "msg/s"),
        ]
    }

    /// An HTTP client configured as the channel's (its connections kept between runs, as the channel's are).
    static func client(authority: String) -> HTTPClient {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.additionalTrustRoots = [.file(authority)]
        var configuration = HTTPClient.Configuration(tlsConfiguration: tls, redirectConfiguration: .disallow)
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 16
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// Seconds for `count` POSTs of `size` random bytes to the push service by `client`, as
    /// many at once as the channel makes them.
    static func plainPosts(_ count: Int, size: Int, port: Int, client: HTTPClient) async throws -> Double {
        let body = (0..<size).map { _ in UInt8.random(in: .min ... .max) }
        return try await BenchClock.seconds {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for index in 0..<count {
                        group.addTask {
                            var request = HTTPClientRequest(url: "https://localhost:\(port)/push/\(index)")
                            request.method = .POST
                            request.body = .bytes(ByteBuffer(bytes: body))
                            let response = try await client.execute(request, timeout: .seconds(30))
                            _ = try await response.body.collect(upTo: 1024)
                            guard response.status == .created else { throw BenchError.unexpected("the push service answered \(response.status)") }
                        }
                    }
                    try await group.waitForAll()
                }
        }
    }
}

/// A push service that takes every push (201), over TLS, in this process.
struct PushService {
    let port: Int
    let task: Task<Void, any Error>

    static func start(certificate: String, key: String) async throws -> PushService {
        let router = Router()
        router.post("push/:id") { request, _ -> Response in
            _ = try await request.body.collect(upTo: 8192)
            return Response(status: .created)
        }
        let tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: try NIOSSLCertificate.fromPEMFile(certificate).map { .certificate($0) }, privateKey: .file(key))
        let (ports, sink) = AsyncStream.makeStream(of: Int.self)
        let application = Application(
            router: router, server: try .tls(.http1(), tlsConfiguration: tls),
            configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: "push-bench"),
            onServerRunning: { channel in sink.yield(channel.localAddress?.port ?? 0) }, logger: Self.quiet)
        let task = Task { try await application.runService() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0 else {
            task.cancel()
            throw BenchError.unexpected("the push service did not start")
        }
        return PushService(port: port, task: task)
    }

    func stop() { task.cancel() }

    /// The push service's logger: its shutdown is the benchmark's end, nothing to report.
    static let quiet: Logger = {
        var logger = Logger(label: "push-bench")
        logger.logLevel = .critical
        return logger
    }()
}
