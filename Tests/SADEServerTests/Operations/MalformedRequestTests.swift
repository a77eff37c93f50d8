import NIOCore
import NIOPosix
import Synchronization
import SADETestTiming
import Testing

/// Requests the HTTP parser refuses, sent as raw bytes: each is answered with 400 and its
/// connection closed, however early in the connection it comes, and the server goes on
/// answering others.
@Suite("Malformed HTTP requests", .timeLimit(.minutes(1)), .timed)
struct MalformedRequestTests {
    static let requests: [(String, String)] = [
        ("a NUL byte in a header value", "GET /health HTTP/1.1\r\nHost: x\r\nX-Probe: a\0b\r\n\r\n"),
        ("a control character in a header value", "GET /health HTTP/1.1\r\nHost: x\r\nX-Probe: a\u{1}b\r\n\r\n"),
        ("a header line without a colon", "GET /health HTTP/1.1\r\nHost: x\r\nNo colon here\r\n\r\n"),
        ("no request line", "GARBAGE\r\n\r\n"),
        ("a NUL byte in the path", "GET /hea\0lth HTTP/1.1\r\nHost: x\r\n\r\n"),
        ("a request line of HTTP/2.0 (the parser reports it twice)", "GET /health HTTP/2.0\r\nHost: x\r\n\r\n"),
        ("a good request, then a bad one on the same connection", "GET /health HTTP/1.1\r\nHost: x\r\n\r\nGET /health HTTP/1.1\r\nBad\r\n\r\n"),
    ]

    @Test("a request the parser refuses is answered 400 and its connection closed; the server answers the next", arguments: requests)
    func refused(_ name: String, _ request: String) async throws {
        try await ServerHarness.run { harness in
            let answer = try await RawHTTP.exchange(request, port: harness.port)
            let statuses = answer.matches(of: #/HTTP/1\.1 (\d{3}) /#).map { String($0.1) }
            #expect(statuses == (name.hasPrefix("a good request") ? ["200", "400"] : ["400"]), "\(name): \(answer)")
            #expect(try await harness.request(.get, "/health").status == .ok)
        }
    }

    @Test("""
        a WebSocket upgrade request whose chunked body cannot be parsed ends its connection, unanswered and not upgraded; the \
        server answers the next
        """)
    func brokenUpgradeRequest() async throws {
        try await ServerHarness.run { harness in
            let answer = try await RawHTTP.exchange("""
                GET /api/v1/home/websocket HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
                Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n
                """, port: harness.port)
            #expect(answer.isEmpty, "\(answer)")
            #expect(try await harness.request(.get, "/health").status == .ok)
        }
    }
}

/// One connection: sends the bytes, and returns all the server sent until it closed
/// (or until the task is cancelled).
enum RawHTTP {
    static func exchange(_ request: String, port: Int) async throws -> String {
        let received = Received()
        let channel = try await connect(port: port, sending: request, received: received)
        // A server that never answers nor closes is caught by the test's time limit.
        try await withTaskCancellationHandler {
            try await channel.closeFuture.get()
        } onCancel: {
            channel.close(promise: nil)
        }
        return received.bytes.withLock { String(buffer: $0) }
    }

    /// Opens a connection and sends `request` on it (which may be nothing, or part of a
    /// request); what comes back goes to `received`.
    static func connect(port: Int, sending request: String, received: Received = Received()) async throws -> any Channel {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(Collector(received: received)) }
            }
            .connect(host: "127.0.0.1", port: port).get()
        if !request.isEmpty { try await channel.writeAndFlush(ByteBuffer(string: request)) }
        return channel
    }

    final class Received: Sendable {
        let bytes = Mutex(ByteBuffer())
    }

    private final class Collector: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        let received: Received
        init(received: Received) { self.received = received }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var bytes = unwrapInboundIn(data)
            received.bytes.withLock { _ = $0.writeBuffer(&bytes) }
        }
    }
}
