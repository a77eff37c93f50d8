import Foundation
import SADETestSupport
import SADETestTiming
import Testing

@Suite("sade home simulate (the command)", .timeLimit(.minutes(3)), .timed)
struct HomeSimulateCommandTests {
    @Test("a simulated gateway replays a resident's routine faster than the clock into a demo flat; every event is accepted")
    func simulateAgainstDemo() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("sade-home-sim-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: data) }
        let (server, url) = try await ServeProcessTests.serve(["--demo", "--data", data])
        defer { server.terminate() }
        let run = try await SadeProcess.run(["home", "simulate", "--server", url, "--flat", "2", "--interval", "1", "--duration", "3", "--speed", "1200"])
        #expect(run.status == 0, "\(run.output)\n\(run.error)")
        let summary = try #require(run.output.split(separator: "\n").last { $0.hasPrefix("sent ") }, "\(run.output)")
        let numbers = summary.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .punctuationCharacters)) }
        #expect(numbers.count == 3 && numbers[0] > 20 && numbers[0] == numbers[1] && numbers[2] == 0, "\(summary)")
        #expect(run.output.contains("simulating Joseph's flat (flat 2"))
    }

    @Test("an unknown flat is refused with the server's answer")
    func unknownFlat() async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("sade-home-sim-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: data) }
        let (server, url) = try await ServeProcessTests.serve(["--demo", "--data", data])
        defer { server.terminate() }
        let run = try await SadeProcess.run(["home", "simulate", "--server", url, "--flat", "99", "--duration", "1"])
        #expect(run.status != 0)
        #expect(run.error.contains("cannot read flat 99: 404"), "\(run.error)")
    }
}
