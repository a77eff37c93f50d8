import Foundation
import SADEMonitoring
import SADETestTiming
import Testing

@Suite("MonitoringSystem: its dates follow the machine's", .timeLimit(.minutes(5)), .timed)
struct MonitoringSystemClockTests {
    @Test("on the real clock, now() equals the machine's date, however long opening the databases took")
    func nowDoesNotLagBehindOpening() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sade-clock-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let configuration = MonitoringSystem.Configuration(dataDirectory: directory)
        let start = ContinuousClock.now
        _ = try? await MonitoringSystem(configuration: configuration)
        let opening = ContinuousClock.now - start
        let system = try await MonitoringSystem(configuration: MonitoringSystem.Configuration(dataDirectory: directory))
        let lag = Date().timeIntervalSince(system.now())
        #expect(abs(lag) < 0.02, "now() is \(lag) s behind the machine (opening took \(opening))")
    }
}
