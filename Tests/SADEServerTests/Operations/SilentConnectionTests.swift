import NIOCore
import NIOPosix
import SADETestTiming
import Synchronization
import Testing

@testable import SADEServer

/// Connections that send no request: the server closes them when it shuts down and when
/// they stay silent too long, so neither a graceful shutdown nor the server's connections
/// wait on a client that says nothing (a spare connection in a client's pool, a browser's
/// preconnect, a slow attack).
@Suite("Connections that send no request", .timeLimit(.minutes(1)), .timed)
struct SilentConnectionTests {
    @Test("a connection that has sent no request, or half a request line, does not hold up a graceful shutdown: the server closes it")
    func closedAtShutdown() async throws {
        let silent = Connections()
        // A regression would hold the shutdown (and the test) for ever: after 20 s the
        // client closes them itself, and the test fails.
        let watchdog = Task {
            try await Task.sleep(for: .seconds(20))
            Issue.record("the graceful shutdown still waits for the connections that sent no request")
            for channel in silent.channels { channel.close(promise: nil) }
        }
        defer { watchdog.cancel() }
        try await ServerHarness.run(configure: { $0.firstRequestTimeout = .seconds(3600) }) { harness in  // only the shutdown closes them
            // A request answered first: the server has accepted and set up the connections
            // opened before it (one listening channel takes them in order).
            silent.add(try await RawHTTP.connect(port: harness.port, sending: ""))
            silent.add(try await RawHTTP.connect(port: harness.port, sending: "GET /hea"))
            #expect(try await harness.request(.get, "/health").status == .ok)
        }
        for channel in silent.channels {
            try await channel.closeFuture.get()
        }
    }

    @Test("a connection that sends no request head within the first-request time limit is closed unanswered, once the limit has passed; the server answers the next")
    func closedAfterTimeout() async throws {
        let limit = Duration.seconds(2)
        try await ServerHarness.run(configure: { $0.firstRequestTimeout = limit }) { harness in
            for sent in ["", "GET /health HTTP/1.1\r\nHost: x\r\n"] {
                let opened = ContinuousClock.now
                let answer = try await RawHTTP.exchange(sent, port: harness.port)
                #expect(answer.isEmpty, "after \(sent.debugDescription): \(answer)")
                #expect(ContinuousClock.now - opened >= limit, "closed only once the limit has passed")
            }
            #expect(try await harness.request(.get, "/health").status == .ok)
        }
    }

    @Test("a connection whose first request came in time is not closed by the first-request time limit: it answers a second request after it")
    func keptAfterFirstRequest() async throws {
        let limit = Duration.seconds(1)
        try await ServerHarness.run(configure: { $0.firstRequestTimeout = limit }) { harness in
            let received = RawHTTP.Received()
            let channel = try await RawHTTP.connect(port: harness.port, sending: "GET /health HTTP/1.1\r\nHost: x\r\n\r\n", received: received)
            defer { channel.close(promise: nil) }
            try await Task.sleep(for: limit * 2)  // not to synchronise: the window in which the server must not close it
            #expect(channel.isActive, "the connection stays open past the limit")
            try await channel.writeAndFlush(ByteBuffer(string: "GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"))
            try await channel.closeFuture.get()
            let statuses = received.bytes.withLock { String(buffer: $0) }.matches(of: #/HTTP/1\.1 (\d{3}) /#).map { String($0.1) }
            #expect(statuses == ["200", "200"])
        }
    }
}

/// Channels opened in a harness's body, looked at after it.
private final class Connections: Sendable {
    private let opened = Mutex<[any Channel]>([])
    func add(_ channel: any Channel) { opened.withLock { $0.append(channel) } }
    var channels: [any Channel] { opened.withLock { $0 } }
}
