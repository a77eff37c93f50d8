import Foundation
@testable import SADEProcess
import SADETestTiming
import Testing

@Suite("The reaper stops a dead parent's children", .timeLimit(.minutes(2)), .timed)
struct ProcessReaperTests {
    @Test("when the pipe from its parent ends (the parent died), the reaper stops the groups it watches, SIGKILL for one that ignores SIGTERM, and leaves those forgotten")
    func stopsWatchedGroups() async throws {
        let reaper = ProcessReaper(grace: .seconds(1))
        let shell = URL(fileURLWithPath: "/bin/sh")
        let polite = try ChildProcess(URL(fileURLWithPath: "/bin/sleep"), ["1000"], reaped: false)
        let stubborn = try ChildProcess(shell, ["-c", "trap '' TERM; echo ready; sleep 1000"], reaped: false)
        let forgotten = try ChildProcess(URL(fileURLWithPath: "/bin/sleep"), ["1000"], reaped: false)
        defer { forgotten.terminate() }
        #expect(await stubborn.line(containing: "ready") != nil)
        for child in [polite, stubborn, forgotten] { reaper.watch(group: child.processIdentifier) }
        reaper.forget(group: forgotten.processIdentifier)

        await reaper.release()

        #expect(await polite.finish().status == SIGTERM)
        #expect(await stubborn.finish().status == SIGKILL)
        #expect(!polite.groupIsAlive && !stubborn.groupIsAlive)
        #expect(forgotten.isRunning)
    }

    @Test("a reaper sent SIGTERM (a run being stopped) stops the groups it watches at once")
    func stopsOnTerminate() async throws {
        let reaper = ProcessReaper(grace: .seconds(1))
        let child = try ChildProcess(URL(fileURLWithPath: "/bin/sleep"), ["1000"], reaped: false)
        reaper.watch(group: child.processIdentifier)
        let watcher = try #require(reaper.watcherProcessIdentifier)
        await reaper.caughtUp()  // it knows the group, and its traps are set
        kill(watcher, SIGTERM)
        #expect(await child.finish().status == SIGTERM)
        await reaper.release()
    }
}
