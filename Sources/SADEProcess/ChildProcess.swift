#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CSADEProcess
import Foundation
import Synchronization

/// A process started by this one, leading a process group of its own, that starts clean:
/// an empty signal mask and every signal's default disposition, whatever the starting
/// thread had blocked or ignored (Swift's cooperative threads block nearly every signal,
/// and a child inherits the mask: a server started from a task would never see SIGTERM),
/// and no descriptor of ours but its standard input, output and error.
///
/// Its standard output and error are collected on threads of their own; its end is
/// waited for on a thread of its own, never on one of Swift's few cooperative threads.
/// ``stop(grace:)`` ends the whole group: SIGTERM, then SIGKILL after a grace period.
/// A process no one holds any more is stopped the same way, and a ``ProcessReaper``
/// stops every group still running when this process ends, however it ends.
public final class ChildProcess: Sendable {
    /// What the child reads on its standard input.
    public enum Input: Sendable {
        /// Nothing: `/dev/null`.
        case none
        /// This text, then end-of-file.
        case text(String)
        /// A pipe kept open by this process: the child sees end-of-file once this process
        /// ends, however it ends, and can notice that its parent is gone.
        case keptOpen
    }

    /// Where the child's standard error goes.
    public enum ErrorOutput: Sendable {
        /// Collected, like standard output (``error``).
        case collected
        /// Nowhere.
        case discarded
    }

    /// The process id, which is also the id of the process group the child leads.
    public let processIdentifier: pid_t
    private let output: OutputCollector
    private let errors: OutputCollector?
    private let exit: ExitWatch
    /// The group the child leads, until it is gone.
    private let group: ProcessGroup
    /// The write end of the child's standard input while it is kept open.
    private let inputPipe: Mutex<Int32?>

    /// Starts `executable` (an absolute path) with `arguments`, in `directory` if given,
    /// with this process's environment, or `environment` if given.
    ///
    /// - Parameter reaped: whether the ``ProcessReaper`` stops the child's group when this
    ///   process ends (a watcher that must outlive this process says `false`).
    /// - Parameter passing: descriptors of this process given to the child, as its
    ///   descriptors 3, 4, … in order (a listening socket a server takes over).
    public init(
        _ executable: URL, _ arguments: [String], environment: [String: String]? = nil, directory: URL? = nil,
        input: Input = .none, errors errorOutput: ErrorOutput = .collected, passing descriptors: [Int32] = [], reaped: Bool = true
    ) throws {
        _ = Self.ignoreBrokenPipes
        var opened: [Int32] = []  // closed here if the child does not start
        var spawned = false
        defer { if !spawned { opened.forEach { _ = close($0) } } }
        func pipe() throws -> (read: Int32, write: Int32) {
            var ends: [Int32] = [0, 0]
            guard sade_pipe_cloexec(&ends) == 0 else { throw ChildProcessError.cannotStart(executable.path, "pipe: \(Self.reason(errno))") }
            opened += ends
            return (ends[0], ends[1])
        }
        let stdout = try pipe()
        let stderr = errorOutput == .collected ? try pipe() : nil
        let stdin: (read: Int32, write: Int32)?
        switch input {
        case .none: stdin = nil
        case .text, .keptOpen: stdin = try pipe()
        }
        // Copies of the passed descriptors numbered above 3 + their count, so that moving
        // each to 3, 4, … never overwrites another still to be moved.
        var copies: [Int32] = []
        defer { copies.forEach { _ = close($0) } }
        for descriptor in descriptors {
            let copy = fcntl(descriptor, F_DUPFD_CLOEXEC, Int32(3 + descriptors.count))
            guard copy >= 0 else { throw ChildProcessError.cannotStart(executable.path, "descriptor \(descriptor): \(Self.reason(errno))") }
            copies.append(copy)
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        var steps: [Int32] = []
        steps.append(
            stdin.map { posix_spawn_file_actions_adddup2(&actions, $0.read, 0) }
                ?? posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0))
        steps.append(posix_spawn_file_actions_adddup2(&actions, stdout.write, 1))
        steps.append(
            stderr.map { posix_spawn_file_actions_adddup2(&actions, $0.write, 2) }
                ?? posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0))
        for (index, copy) in copies.enumerated() { steps.append(posix_spawn_file_actions_adddup2(&actions, copy, Int32(3 + index))) }
        // Nothing else of ours: another child's pipe held open here would hide its end.
        steps.append(sade_spawn_add_close_from(&actions, Int32(3 + descriptors.count)))
        if let directory { steps.append(sade_spawn_add_chdir(&actions, directory.path)) }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        steps.append(posix_spawnattr_setsigmask(&attributes, &noSignals))
        var everySignal = sigset_t()
        sigfillset(&everySignal)
        steps.append(posix_spawnattr_setsigdefault(&attributes, &everySignal))
        steps.append(posix_spawnattr_setpgroup(&attributes, 0))
        steps.append(posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP)))
        if let failed = steps.first(where: { $0 != 0 }) { throw ChildProcessError.cannotStart(executable.path, Self.reason(failed)) }

        let environment = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        var spawnedID: pid_t = 0
        let result = Self.withCStrings([executable.path] + arguments) { argv in
            Self.withCStrings(environment) { envp in
                posix_spawn(&spawnedID, executable.path, &actions, &attributes, argv, envp)
            }
        }
        guard result == 0 else { throw ChildProcessError.cannotStart(executable.path, Self.reason(result)) }
        spawned = true
        // The child has its ends; ours are the other ones.
        close(stdout.write)
        if let stderr { close(stderr.write) }
        if let stdin { close(stdin.read) }

        let pid = spawnedID
        processIdentifier = pid
        let group = ProcessGroup(pid, reaper: reaped ? ProcessReaper.shared : nil)
        self.group = group
        output = OutputCollector(stdout.read)
        errors = stderr.map { OutputCollector($0.read) }
        // Ended with its whole group: nothing left to stop, and the id may soon be another's.
        exit = ExitWatch(pid) { _ = group.isAlive(leaderCollected: true) }
        switch input {
        case .none:
            inputPipe = Mutex(nil)
        case .text(let text):
            let handle = FileHandle(fileDescriptor: stdin!.write, closeOnDealloc: true)
            Thread.detachNewThread {
                try? handle.write(contentsOf: Data(text.utf8))
                try? handle.close()
            }
            inputPipe = Mutex(nil)
        case .keptOpen:
            inputPipe = Mutex(stdin!.write)
        }
    }

    deinit {
        closeInput()
        // No one can stop it any more: stop it now rather than leave it to outlive us.
        if groupIsAlive { terminate() }
    }

    // MARK: Output

    /// Everything the child printed on its standard output so far.
    public var text: String { output.text }

    /// Everything the child printed on its standard error so far (empty when discarded).
    public var error: String { errors?.text ?? "" }

    /// The first complete line of standard output containing `needle`, once printed; `nil`
    /// if the child closes its output first, or the waiting task is cancelled.
    public func line(containing needle: String) async -> String? {
        await output.firstLine(containingAny: [needle])
    }

    /// The first complete line of standard output containing any of `needles` (a server's
    /// "ready" or its "cannot listen"), once printed; `nil` as for ``line(containing:)``.
    public func line(containingAny needles: [String]) async -> String? {
        await output.firstLine(containingAny: needles)
    }

    // MARK: Input

    /// Writes `text` to the child's standard input, if it is kept open (``Input/keptOpen``).
    public func write(_ text: String) {
        inputPipe.withLock { descriptor in
            guard let descriptor else { return }
            var bytes = Array(text.utf8)[...]
            while !bytes.isEmpty {
                let written = bytes.withUnsafeBytes { systemWrite(descriptor, $0.baseAddress, $0.count) }
                if written < 0 && errno == EINTR { continue }
                if written <= 0 { return }
                bytes = bytes.dropFirst(written)
            }
        }
    }

    /// Closes the child's standard input if it is kept open: the child reads end-of-file.
    public func closeInput() {
        inputPipe.withLock { descriptor in
            if let open = descriptor { close(open) }
            descriptor = nil
        }
    }

    // MARK: Ending

    /// Whether the child has not ended yet.
    public var isRunning: Bool { exit.status == nil }

    /// Sends `signal` to the child itself, if it has not ended (its id could be another's by then).
    public func signal(_ number: Int32) {
        exit.whileRunning { kill(processIdentifier, number) }
    }

    /// Sends `signal` to every process of the child's group, while any of it runs.
    public func signalGroup(_ number: Int32) {
        if groupIsAlive { kill(-processIdentifier, number) }
    }

    /// Whether any process of the child's group still runs (the child, or a process it
    /// started that stayed in its group).
    public var groupIsAlive: Bool { group.isAlive(leaderCollected: exit.status != nil) }

    /// Whether any process of group `id` still runs. A zombie (a process that ended and
    /// waits for its parent to collect it, which an orphan's new parent, the machine's init,
    /// may never do) does not count, although a signal to the group still "reaches" it.
    public static func groupIsAlive(_ id: pid_t) -> Bool { ProcessGroup.anyRunning(in: id) }

    /// Waits for the child to end and its output to close; returns its exit status (the
    /// signal's number if a signal ended it) and everything it printed. If the waiting task
    /// is cancelled (a test past its time limit), the child's group is stopped, so that the
    /// wait ends rather than hang.
    public func finish() async -> (status: Int32, output: String, error: String) {
        let status = await withTaskCancellationHandler {
            await exit.ended()
        } onCancel: {
            terminate(grace: .seconds(1))
        }
        await output.closed()
        await errors?.closed()
        return (status, output.text, error)
    }

    /// Ends the child's whole group — SIGTERM, then SIGKILL for what is left after `grace` —
    /// and returns once no process of the group is left.
    public func stop(grace: Duration = .seconds(5)) async {
        await withCheckedContinuation { continuation in
            stopGroup(grace: grace) { continuation.resume() }
        }
    }

    /// ``stop(grace:)`` without waiting for it (in a `defer`, say).
    public func terminate(grace: Duration = .seconds(5)) {
        stopGroup(grace: grace) {}
    }

    /// On a thread of its own: SIGTERM to the group, SIGKILL after `grace` if any of it is
    /// left, then `done` once the group is gone.
    private func stopGroup(grace: Duration, done: @escaping @Sendable () -> Void) {
        let (group, exit, id) = (group, exit, processIdentifier)
        Thread.detachNewThread {
            let pause = useconds_t(50_000)
            let alive = { group.isAlive(leaderCollected: exit.status != nil) }
            if alive() {
                kill(-id, SIGTERM)
                let deadline = ContinuousClock.now + grace
                while alive() && ContinuousClock.now < deadline { usleep(pause) }
                if alive() {
                    kill(-id, SIGKILL)
                    // SIGKILL cannot be ignored; the bound only guards against a process
                    // stuck in the kernel (uninterruptible sleep).
                    let killed = ContinuousClock.now + .seconds(30)
                    while alive() && ContinuousClock.now < killed { usleep(pause) }
                }
            }
            done()
        }
    }

    // MARK: Plumbing

    /// A child that ends before reading what is written to it must not end this process
    /// (SIGPIPE's default); the write fails instead. Children start with the default again.
    private static let ignoreBrokenPipes: Void = { _ = ignoreSignal(SIGPIPE) }()

    private static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }

    private static func withCStrings<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
        var pointers = strings.map { strdup($0) }
        pointers.append(nil)
        defer { for pointer in pointers { free(pointer) } }
        return body(pointers)
    }
}

/// A child could not be started.
public enum ChildProcessError: Error, CustomStringConvertible {
    /// `program` could not be started, for `reason`.
    case cannotStart(String, String)

    public var description: String {
        switch self {
        case .cannotStart(let program, let reason): "cannot start \(program): \(reason)"
        }
    }
}

/// `write(2)`, which ``ChildProcess/write(_:)`` hides by its name.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}

/// `signal(number, SIG_IGN)`, which ``ChildProcess/signal(_:)`` hides by its name.
private func ignoreSignal(_ number: Int32) -> sighandler_t? {
    signal(number, SIG_IGN)
}
