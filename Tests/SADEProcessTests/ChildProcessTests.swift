import Foundation
import SADEProcess
import SADETestTiming
import Testing

@Suite("Child processes start clean and stop with their group", .timeLimit(.minutes(2)), .timed)
struct ChildProcessTests {
    static let shell = URL(fileURLWithPath: "/bin/sh")

    /// The value of a `/proc/PID/status` line, e.g. `SigBlk`.
    static func field(_ name: String, in status: String) -> String? {
        status.split(separator: "\n").first { $0.hasPrefix(name + ":") }.map { $0.dropFirst(name.count + 1).trimmingCharacters(in: .whitespaces) }
    }

    /// Whether process `pid` is gone or a zombie (ended, not yet collected by its parent).
    static func hasEnded(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else { return true }
        return stat[stat.index(after: close)...].split(separator: " ").first == "Z"
    }

    @Test("a child started while the starting thread blocks SIGTERM and SIGINT and this process ignores SIGUSR2 has an empty mask, ignores nothing, and leads a group of its own")
    func cleanSignals() async throws {
        let previous = signal(SIGUSR2, SIG_IGN)
        defer { signal(SIGUSR2, previous) }
        var blocked = sigset_t(), saved = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGTERM)
        sigaddset(&blocked, SIGINT)
        pthread_sigmask(SIG_BLOCK, &blocked, &saved)
        let child: ChildProcess
        do {
            defer { pthread_sigmask(SIG_SETMASK, &saved, nil) }
            // The starting thread's own mask, to show what a child would otherwise inherit.
            let own = try String(contentsOfFile: "/proc/thread-self/status", encoding: .utf8)
            #expect(try #require(Self.field("SigBlk", in: own)) != "0000000000000000")
            child = try ChildProcess(URL(fileURLWithPath: "/bin/cat"), ["/proc/self/status", "/proc/self/stat"])
        }
        let (status, output, error) = await child.finish()
        #expect(status == 0, "\(error)")
        #expect(Self.field("SigBlk", in: output) == "0000000000000000")
        // Signals 1–31; glibc keeps 32 and 33 for itself (thread cancellation, set*id).
        let ignored = try #require(Self.field("SigIgn", in: output).flatMap { UInt64($0, radix: 16) })
        #expect(ignored & 0x7fff_ffff == 0, "ignored: \(String(ignored, radix: 16))")
        // /proc/self/stat: "PID (cat) STATE PPID PGRP …": the group is the child's own id.
        let stat = try #require(output.split(separator: "\n").last { $0.contains("(cat)") })
        let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
        #expect(fields.count > 2 && fields[2] == "\(child.processIdentifier)", "\(stat)")
    }

    @Test("a child gets no descriptor of this process but its standard input, output and error, and those it is passed")
    func noInheritedDescriptors() async throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)  // without close-on-exec, as other code here may make them
        defer { close(ends[0]); close(ends[1]) }
        let child = try ChildProcess(Self.shell, ["-c", "ls /proc/$$/fd"], passing: [ends[0]])
        let listed = await child.finish().output.split(separator: "\n").compactMap { Int32($0) }.sorted()
        #expect(listed == [0, 1, 2, 3], "the shell's own descriptors, and the one passed as 3")
    }

    @Test("several descriptors passed arrive as 3, 4, … in the order given, whatever their numbers here")
    func passedDescriptorsInOrder() async throws {
        var first: [Int32] = [0, 0], second: [Int32] = [0, 0]
        try #require(pipe(&first) == 0)
        try #require(pipe(&second) == 0)
        // The higher-numbered one first: it becomes 3, the other 4.
        let child = try ChildProcess(Self.shell, ["-c", "echo three >&3; echo four >&4"], passing: [second[1], first[1]])
        close(first[1])
        close(second[1])
        let status = await child.finish().status
        func readAll(_ descriptor: Int32) -> String {
            defer { close(descriptor) }
            var buffer = [UInt8](repeating: 0, count: 64)
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            return String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self)
        }
        #expect(status == 0)
        #expect(readAll(second[0]) == "three\n", "the first descriptor given arrived as 3")
        #expect(readAll(first[0]) == "four\n", "the second arrived as 4")
    }

    @Test("stop ends a child at SIGTERM, and a group that ignores it (a child and its grandchild) with SIGKILL after the grace period")
    func stopWholeGroup() async throws {
        let polite = try ChildProcess(URL(fileURLWithPath: "/bin/sleep"), ["1000"])
        await polite.stop(grace: .seconds(30))
        #expect(await polite.finish().status == SIGTERM)

        let stubborn = try ChildProcess(Self.shell, ["-c", "trap '' TERM; sleep 1000 & echo grandchild $!; wait"])
        let line = try #require(await stubborn.line(containing: "grandchild "))
        let grandchild = try #require(pid_t(line.split(separator: " ").last ?? ""))
        await stubborn.stop(grace: .milliseconds(200))
        #expect(await stubborn.finish().status == SIGKILL)
        #expect(!stubborn.groupIsAlive)
        #expect(Self.hasEnded(grandchild), "the grandchild went with its group")
    }

    @Test("a child no one holds any more is stopped with its group")
    func stoppedWhenReleased() async throws {
        var child: ChildProcess? = try ChildProcess(URL(fileURLWithPath: "/bin/sleep"), ["1000"])
        let group = child!.processIdentifier
        #expect(ChildProcess.groupIsAlive(group))
        child = nil
        let deadline = ContinuousClock.now + .seconds(60)
        while ChildProcess.groupIsAlive(group) && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(!ChildProcess.groupIsAlive(group), "the released child's group is gone")
    }

    @Test("text given as input is read to its end; a line is awaited as it is printed")
    func inputAndLines() async throws {
        let child = try ChildProcess(URL(fileURLWithPath: "/bin/cat"), [], input: .text("one\ntwo\n"))
        #expect(await child.line(containing: "tw") == "two")
        #expect(await child.finish() == (0, "one\ntwo\n", ""))
    }

    @Test("a program that does not exist is a clear error, not a crash")
    func missingProgram() {
        #expect(throws: ChildProcessError.self) { try ChildProcess(URL(fileURLWithPath: "/nonexistent/sade-nothing"), []) }
    }
}
