import Foundation
import SADECore
import SADEExamples
import Synchronization
import SADETestSupport
import SADETestTiming
import Testing

@Suite("Fire-alarm example", .timeLimit(.minutes(3)), .timed)
struct FireAlarmTests {
    @Test("each fire is detected, reported, put out and cleared, in that order, at the check interval")
    func storyOnAManualClock() async throws {
        let clock = ManualClock()
        let platform = Environment(name: "fire-test", clock: clock)
        let lines = Transcript()
        let demo = FireAlarmDemo(interval: .seconds(2), fires: 3, timeout: .seconds(60))

        let report = try await withThrowingTaskGroup(of: FireAlarmDemo.Report?.self) { group in
            group.addTask { try await demo.run(on: platform) { line in lines.append(line) } }
            group.addTask {
                while !Task.isCancelled {  // drive time: one check interval whenever Alarmed sleeps
                    await clock.waitForSleepers(1)
                    clock.advance(by: .seconds(2))
                }
                return nil
            }
            let report = try await group.next() ?? nil
            group.cancelAll()
            return report
        }

        #expect(report?.firesLit == 3)
        #expect(report?.firesPutOut == 3)
        let story = lines.all
        var position = 0
        func expectNext(_ fragment: String) {
            guard let index = story[position...].firstIndex(where: { $0.contains(fragment) }) else {
                Issue.record("'\(fragment)' missing after line \(position) in:\n\(story.joined(separator: "\n"))")
                return
            }
            position = index + 1
        }
        for (number, room) in zip(1...3, ["kitchen", "living room", "bedroom"]) {
            expectNext("Building: fire \(number) of 3 breaks out in the \(room)")
            expectNext("Alarmed: fire detected in the \(room)")
            expectNext("Fireman: alarm from Alarmed")
            expectNext("Fireman: water on the fire in the \(room)")
            expectNext("Fireman: fire extinguished")
            expectNext("all clear")
        }
        expectNext("Demo: 3 of 3 fire(s) put out")
        let detections = story.filter { $0.contains("Alarmed: fire detected") }
        #expect(detections.count == 3)
        for line in detections {  // detected at a check: a whole multiple of the 2 s interval
            let seconds = Double(line.drop { $0 == "[" || $0 == " " }.prefix { $0 != "s" }) ?? -1
            #expect(seconds > 0 && seconds.truncatingRemainder(dividingBy: 2) == 0, "\(line)")
        }
        #expect(platform.agentCount == 0, "the demo stops its agents")
    }
}

extension FireAlarmTests {
    @Test("a demo whose fires are not put out in time throws timedOut and stops its agents")
    func timeout() async throws {
        let platform = Environment(name: "fire-test", clock: ManualClock())  // time never moves
        let demo = FireAlarmDemo(interval: .seconds(1), fires: 2, timeout: .milliseconds(50))
        await #expect(throws: FireAlarmDemo.Failure.timedOut(putOut: 0, of: 2)) {
            _ = try await demo.run(on: platform) { _ in }
        }
        #expect(platform.agentCount == 0)
    }
}

/// The lines a demo printed.
final class Transcript: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}

@Suite("sade demo fire (the command)", .timeLimit(.minutes(3)), .timed)
struct FireDemoCommandTests {
    @Test("prints the story and exits 0 when every fire is out")
    func printsStoryAndExitsZero() async throws {
        #expect(FileManager.default.isExecutableFile(atPath: SadeProcess.executable.path), "sade not built at \(SadeProcess.executable.path)")
        let result = try await SadeProcess.run(["demo", "fire", "--interval", "0.02", "--fires", "2"])
        #expect(result.status == 0, "stderr: \(result.error)")
        #expect(result.output.contains("Alarmed: fire detected in the kitchen"))
        #expect(result.output.contains("Fireman: fire extinguished"))
        #expect(result.output.contains("Demo: 2 of 2 fire(s) put out"))
    }

    @Test("exits 1 and says how many fires were put out when time runs out")
    func timesOut() async throws {
        let result = try await SadeProcess.run(["demo", "fire", "--interval", "3600", "--fires", "2", "--timeout", "0.1"])
        #expect(result.status == 1)
        #expect(result.error.contains("timed out: only 0 of 2 fires were put out"), "stderr: \(result.error)")
    }

    @Test("rejects bad options with a clear message and a non-zero exit", arguments: [
        ["demo", "fire", "--fires", "0"], ["demo", "fire", "--interval", "-1"], ["demo", "fire", "--fires", "many"],
        ["demo", "fire", "--timeout", "inf"], ["demo", "fire", "--interval", "nan"], ["demo", "fire", "--timeout", "1e30"],
    ])
    func rejectsBadOptions(arguments: [String]) async throws {
        let result = try await SadeProcess.run(arguments)
        #expect(result.status != 0)
        #expect(result.error.contains("Error:"), "stderr: \(result.error)")
    }
}
