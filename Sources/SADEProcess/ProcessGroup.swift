#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization

/// The process group a child leads. Once its leader has been collected and no process
/// of it runs, it is gone for good: its id may be given to another group, so nothing is
/// signalled by it any more, and the reaper is told to forget it, once.
final class ProcessGroup: Sendable {
    private struct State {
        var isGone = false
        var isForgotten = false
    }

    let id: pid_t
    private let reaper: ProcessReaper?
    private let state = Mutex(State())

    /// The group `id`, watched by `reaper` if given.
    init(_ id: pid_t, reaper: ProcessReaper?) {
        self.id = id
        self.reaper = reaper
        reaper?.watch(group: id)
    }

    /// Whether any process of the group runs; `leaderCollected` says whether the leader's
    /// id is free again (while it is not, no other group can take the id).
    func isAlive(leaderCollected: Bool) -> Bool {
        if state.withLock({ $0.isGone }) { return false }
        if Self.anyRunning(in: id) { return true }
        if leaderCollected {
            let forget = state.withLock { state in
                state.isGone = true
                defer { state.isForgotten = true }
                return !state.isForgotten
            }
            if forget { reaper?.forget(group: id) }
        }
        return false
    }

    /// Whether any process of group `id` runs, zombies aside (see ``ChildProcess/groupIsAlive(_:)``).
    static func anyRunning(in id: pid_t) -> Bool {
        guard kill(-id, 0) == 0 else { return false }
        #if os(Linux)
        // The leader itself, most often: one file read rather than every process's.
        if let leader = stat(of: "\(id)"), leader.group == id, leader.state != "Z" { return true }
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return true }
        return entries.contains { entry in
            guard entry.first?.isNumber == true, let process = stat(of: entry) else { return false }
            return process.group == id && process.state != "Z" && process.state != "X"
        }
        #else
        return true
        #endif
    }

    /// A process's state letter and group, from `/proc/PID/stat`: "PID (COMMAND) STATE PPID
    /// PGRP …", where the command may hold spaces and parentheses.
    private static func stat(of pid: String) -> (state: Substring, group: pid_t)? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = text.lastIndex(of: ")") else {
            return nil
        }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 2, let group = pid_t(fields[2]) else { return nil }
        return (fields[0], group)
    }
}
