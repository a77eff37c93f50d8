import Foundation
import SADETestSupport
import SADETestTiming
import Testing

/// The home event bus driven by a client in another language: `Tests/HomeBus/home_bus_client.py`
/// (Python's `websockets`, installed by `scripts/test`) against a real `sade serve --demo`.
@Suite("Home event bus: a Python client drives every command", .timeLimit(.minutes(5)), .timed)
struct HomeBusClientTests {
    @Test("""
        the demo's two flats over REST and WebSocket: the auth phase, ping, get_states, subscriptions, call_service confirmed by the \
        gateway, history, statistics, the thesis's seven requests, bad input answered with codes, a gateway's events, access per \
        carer, bad tokens, oversized frames and a missing auth closing the socket
        """)
    func pythonClient() async throws {
        try await TestTools.requirePython(modules: ["websockets"])
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("sade-home-bus-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: data) }
        let (server, url) = try await ServeProcessTests.serve(["--demo", "--data", data])
        defer { server.terminate() }
        let script = TestTools.repository.appendingPathComponent("Tests/HomeBus/home_bus_client.py").path
        let run = try await SadeProcess.python([script, "--url", url], modules: ["websockets"])
        #expect(run.status == 0, "the Python client failed:\n\(run.output.suffix(6000))\n\(run.error.suffix(4000))")
        #expect(run.output.contains(" passed, 0 failed"), "\(run.output.suffix(2000))")
    }
}
