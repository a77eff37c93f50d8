import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The `tcp` suite's baseline, the machine's limit: two threads of this process
/// bouncing a frame of the same size over a loopback TCP connection with blocking
/// sockets, one frame in flight.
enum RawSocketPingPong {
    /// `roundTrips` exchanges of `frameBytes`-byte frames: messages/s (two per round
    /// trip) and round-trip p50 / p99 in µs.
    static func run(roundTrips: Int, frameBytes: Int) throws -> [String: Double] {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        try withSocketAddress(&address) { guard bind(listener, $0, length) == 0, listen(listener, 1) == 0 else { throw failure("listen") } }
        try withSocketAddress(&address) { guard getsockname(listener, $0, &length) == 0 else { throw failure("getsockname") } }

        let echo = Thread {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { return }
            noDelay(connection)
            var buffer = [UInt8](repeating: 0, count: frameBytes)
            while exchange(connection, &buffer, send: false), exchange(connection, &buffer, send: true) {}
            close(connection)
        }
        echo.start()

        let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(client) }
        try withSocketAddress(&address) { guard connect(client, $0, length) == 0 else { throw failure("connect") } }
        noDelay(client)
        var buffer = [UInt8](repeating: 7, count: frameBytes)
        var latencies: [Double] = []
        latencies.reserveCapacity(roundTrips)
        let start = BenchClock.clock.now
        for _ in 0..<roundTrips {
            let sent = BenchClock.clock.now
            guard exchange(client, &buffer, send: true), exchange(client, &buffer, send: false) else { throw failure("exchange") }
            latencies.append((BenchClock.clock.now - sent).microseconds)
        }
        let seconds = (BenchClock.clock.now - start).seconds
        shutdown(client, Int32(SHUT_RDWR))
        let latency = Percentiles(latencies)
        return ["rate": Double(2 * roundTrips) / seconds, "p50": latency.p50, "p99": latency.p99]
    }

    /// Sends or receives exactly one frame; `false` when the connection ended.
    private static func exchange(_ socket: Int32, _ buffer: inout [UInt8], send sending: Bool) -> Bool {
        var done = 0
        while done < buffer.count {
            let count = buffer.withUnsafeMutableBytes { bytes in
                sending
                    ? Glibc.send(socket, bytes.baseAddress! + done, bytes.count - done, Int32(MSG_NOSIGNAL))
                    : recv(socket, bytes.baseAddress! + done, bytes.count - done, 0)
            }
            guard count > 0 else { return false }
            done += count
        }
        return true
    }

    private static func noDelay(_ socket: Int32) {
        var on: Int32 = 1
        setsockopt(socket, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
    }

    private static func withSocketAddress(_ address: inout sockaddr_in, _ body: (UnsafeMutablePointer<sockaddr>) throws -> Void) throws {
        try withUnsafeMutablePointer(to: &address) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { try body($0) }
        }
    }

    private static func failure(_ call: String) -> BenchError {
        .unexpected("loopback socket \(call) failed: errno \(errno)")
    }
}
