#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization

/// A watcher process that outlives this one to stop the process groups this one started:
/// when this process ends, however it ends (a crash, SIGKILL, a time limit), the pipe to
/// the watcher reaches end-of-file, and the watcher sends each group still running
/// SIGTERM, then SIGKILL after a grace period.
///
/// ``ChildProcess`` tells the shared reaper of every group it starts and forgets it once
/// stopped. The watcher ignores SIGINT and SIGHUP (a Ctrl-C at the terminal reaches the
/// test process, not the watcher's own group), and on SIGTERM it stops the groups at once.
/// ``ChildProcess`` tells it of each group once, and to forget it once the group is gone.
public final class ProcessReaper: Sendable {
    /// The reaper of this process, started on first use.
    public static let shared = ProcessReaper()

    /// The watcher process, whose standard input is the pipe; `nil` if it could not start.
    private let watcher: ChildProcess?

    /// Starts a watcher of its own.
    public init(grace: Duration = .seconds(5)) {
        let script = Self.script(graceSteps: Int((grace / .milliseconds(50)).rounded(.up)))
        let watcher = try? ChildProcess(
            URL(fileURLWithPath: "/bin/bash"), ["-c", script, "sade-reaper"], input: .keptOpen, errors: .discarded, reaped: false)
        self.watcher = watcher
    }

    /// The watcher's process id, if it started.
    var watcherProcessIdentifier: pid_t? { watcher?.processIdentifier }

    /// Stops `group` when this process ends, unless forgotten first.
    public func watch(group: pid_t) { send("+\(group)\n") }

    /// No longer stops `group` (it is gone: its id may soon be another's).
    public func forget(group: pid_t) { send("-\(group)\n") }

    /// Returns once the watcher has read every line sent before (its traps are set by then).
    func caughtUp() async {
        let mark = UUID().uuidString
        send("=\(mark)\n")
        _ = await watcher?.line(containing: "read \(mark)")
    }

    /// Lets the watcher go as if this process had ended: it stops every group still watched.
    /// Returns once the watcher has done so.
    public func release() async {
        watcher?.closeInput()
        _ = await watcher?.finish()
    }

    private func send(_ line: String) { watcher?.write(line) }

    /// The watcher: reads `+GROUP` and `-GROUP` lines (and `=MARK`, answered with `read
    /// MARK`) until end-of-file (or SIGTERM),
    /// then ends the groups: SIGTERM, and SIGKILL for those with a process still running
    /// after the grace period (a zombie, which this machine's init may never collect,
    /// does not count).
    private static func script(graceSteps: Int) -> String {
        """
        trap '' INT HUP QUIT PIPE
        groups=" "
        running() {
            local IFS=$' \t\n' stat line rest fields alive=" "
            for stat in /proc/[0-9]*/stat; do
                { read -r line < "$stat"; } 2>/dev/null || continue
                rest=${line##*) }
                fields=($rest)
                [ "${fields[0]}" = Z ] && continue
                case "$groups" in *" ${fields[2]} "*) [[ "$alive" == *" ${fields[2]} "* ]] || alive+="${fields[2]} " ;; esac
            done
            echo $alive
        }
        stop_groups() {
            # A trap can run inside `IFS= read`, whose empty IFS would keep the list whole.
            local IFS=$' \t\n' group alive step
            for group in $groups; do kill -TERM -- "-$group" 2>/dev/null; done
            for step in $(seq \(max(graceSteps, 1))); do
                alive=$(running)
                [ -z "$alive" ] && return
                sleep 0.05
            done
            for group in $alive; do kill -KILL -- "-$group" 2>/dev/null; done
        }
        trap 'stop_groups; exit 0' TERM
        # A SIGTERM that comes just as `read` starts waiting runs its trap only once
        # `read` returns: it returns every second, input or not, keeping what it read of
        # a line (bash reads a pipe byte by byte) for the next.
        partial=
        while :; do
            IFS= read -r -t 1 part
            status=$?
            if [ $status -gt 128 ]; then partial+=$part; continue; fi
            line=$partial$part
            partial=
            [ $status -eq 0 ] || break
            case $line in
                +*) groups+="${line#+} " ;;
                -*) groups="${groups/ ${line#-} / }" ;;
                =*) echo "read ${line#=}" ;;
            esac
        done
        stop_groups
        exit 0
        """
    }
}
