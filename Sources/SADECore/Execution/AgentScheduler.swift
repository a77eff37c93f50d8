#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Synchronization

/// The threads that run agents: a small pool, one thread per core, that hands a
/// message from one agent to the next without waking another thread.
///
/// Every ``Agent`` runs on an ``AgentExecutor`` scheduled here. When an agent's code
/// sends a message to an idle agent, the receiver is put in the sending thread's
/// *next* slot and runs on that thread as soon as the sender's turn ends: a chain
/// of messages (a token ring, a ping-pong, a pipeline of agents) runs without a
/// task, a thread wake-up or a lock shared between threads. Work from elsewhere
/// (another thread, a network event loop, a task on Swift's global executor) goes
/// to a shared queue and wakes an idle thread. A thread runs at most
/// ``nextSlotLimit`` agents in a row from its slot before it takes the oldest
/// waiting work, so no agent starves.
///
/// It is also a `TaskExecutor`: code that talks to many agents, such as a test
/// or a benchmark starting thousands of them, can prefer it
/// (`Task(executorPreference: AgentScheduler.shared) { … }`), so that awaiting an
/// agent does not move the task between threads.
///
/// A thread that runs out of work first spins for a little while (one thread at a
/// time, yielding the core to any other runnable thread) before it sleeps: work
/// shared in that window, such as a message arriving from the network or an awaited
/// start from a task elsewhere, starts without a wake-up (tens of microseconds).
///
/// Agent code must not block its thread waiting for another agent: the pool has
/// one thread per core.
///
/// The shared pool lives as long as the process. A pool of its own (a test, a
/// benchmark, an app that keeps some agents apart) is ended with ``shutdown()``.
public final class AgentScheduler: TaskExecutor, Sendable {
    /// The pool every agent runs on: one thread per core, at least two.
    public static let shared = AgentScheduler(threads: max(2, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))))

    /// How many agents a thread runs in a row from its *next* slot before it takes
    /// the oldest waiting work.
    public static let nextSlotLimit = 16

    /// The number of threads.
    public let threadCount: Int

    /// How long an idle thread spins, waiting for shared work, before it sleeps.
    public static let spinDuration = Duration.microseconds(50)

    private let queue = Mutex(RunQueue())
    private let parkingSpots: [DispatchSemaphore]
    /// How many items the shared queue holds, readable without its lock.
    private let sharedCount = Atomic<Int>(0)

    /// Set by ``shutdown()``: threads exit once no work is left.
    private let stopping = Atomic<Bool>(false)
    /// Left by each thread as it exits.
    private let running = DispatchGroup()

    /// Starts a pool of `threads` threads, named `name-0`, `name-1`, … (for `top -H`,
    /// `perf` and debuggers; at most 15 bytes on Linux); they run until ``shutdown()``.
    public init(threads: Int, name: String = "sade-agents") {
        precondition(threads > 0, "an agent scheduler needs at least one thread")
        threadCount = threads
        parkingSpots = (0..<threads).map { _ in DispatchSemaphore(value: 0) }
        for index in 0..<threads {
            running.enter()
            WorkerThread.start(WorkerThread(index: index, scheduler: self), name: "\(name)-\(index)")
        }
    }

    /// Ends the pool: each thread runs the work already given to it, then exits;
    /// returns once every thread has. Stop the pool's agents first: work scheduled
    /// after the threads exit is never run (a task preferring this pool would wait for
    /// ever; so would the shutdown itself, awaited from such a task). Calling it again
    /// returns at once; the shared pool is never shut down.
    public func shutdown() async {
        precondition(self !== AgentScheduler.shared, "the shared agent scheduler lives as long as the process")
        stopping.store(true, ordering: .sequentiallyConsistent)
        for spot in parkingSpots { spot.signal() }
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            running.notify(queue: .global()) { done.resume() }
        }
    }

    /// Runs a task's job (`TaskExecutor`).
    public func enqueue(_ job: consuming ExecutorJob) {
        schedule(.job(UnownedJob(job)))
    }

    /// Makes an agent's executor, which has just received work, run soon.
    func schedule(_ executor: AgentExecutor) {
        schedule(.agent(executor))
    }

    private func schedule(_ work: Runnable) {
        guard let thread = WorkerThread.current, thread.scheduler === self else { return share(work) }
        if let displaced = thread.next { share(displaced) }
        thread.next = work
    }

    /// Puts work in the shared queue and wakes an idle thread if there is one.
    private func share(_ work: Runnable) {
        let idle = queue.withLock { queue in
            queue.append(work)
            sharedCount.add(1, ordering: .relaxed)
            // A spinning thread takes the work without being woken.
            return queue.hasSpinner ? nil : queue.idleThreads.popLast()
        }
        if let idle { parkingSpots[idle].signal() }
    }

    /// A worker thread's loop: its next slot first (up to the limit), then the
    /// shared queue, then sleep until work is shared; returns once the pool is shut
    /// down and no work is left.
    func work(on thread: WorkerThread) {
        defer { running.leave() }
        while true {
            guard let work = nextWork(for: thread) else {
                if stopping.load(ordering: .sequentiallyConsistent), queue.withLock({ $0.leaveUnlessWorkWaits(thread.index) }) { return }
                if spinForSharedWork() { continue }
                if queue.withLock({ $0.parkUnlessWorkWaits(thread.index) }) {
                    // Looked again once listed: a shutdown that signalled before the listing is not missed.
                    if stopping.load(ordering: .sequentiallyConsistent), queue.withLock({ $0.leaveUnlessWorkWaits(thread.index) }) { return }
                    parkingSpots[thread.index].wait()
                }
                continue
            }
            switch work {
            case .job(let job):
                job.runSynchronously(on: asUnownedTaskExecutor())
            case .agent(let executor):
                thread.running = executor
                let hasMore = executor.runTurn()
                thread.running = nil
                if hasMore { share(work) }
            }
        }
    }

    private func nextWork(for thread: WorkerThread) -> Runnable? {
        if let next = thread.next, thread.nextStreak < Self.nextSlotLimit {
            thread.next = nil
            thread.nextStreak += 1
            return next
        }
        thread.nextStreak = 0
        let held = thread.next
        thread.next = nil
        return queue.withLock { queue in
            if let held {
                // The slot's work goes behind what waited; alone, it just goes on.
                if queue.isEmpty { return held }
                queue.append(held)
                sharedCount.add(1, ordering: .relaxed)
            }
            guard let oldest = queue.popFirst() else { return nil }
            sharedCount.subtract(1, ordering: .relaxed)
            return oldest
        }
    }

    /// Spins, if no other thread does, until work is shared or ``spinDuration``
    /// passes; returns whether work is there.
    private func spinForSharedWork() -> Bool {
        guard queue.withLock({ $0.claimSpinning() }) else { return false }
        let deadline = ContinuousClock.now + Self.spinDuration
        var found = false
        var rounds = 0
        while !found {
            found = sharedCount.load(ordering: .relaxed) > 0
            rounds += 1
            // The clock is read every 64 rounds; a yield lets a runnable thread have the core.
            if rounds % 64 == 0 {
                if ContinuousClock.now >= deadline { break }
                sched_yield()
            }
        }
        // Cleared under the lock, after which sharing wakes a sleeping thread again;
        // more than the spinner can take at once wakes one now.
        let helper = queue.withLock { queue in
            queue.hasSpinner = false
            return sharedCount.load(ordering: .relaxed) > 1 ? queue.idleThreads.popLast() : nil
        }
        if let helper { parkingSpots[helper].signal() }
        return found
    }
}

extension AgentScheduler {
    /// Something a worker thread can run.
    enum Runnable: Sendable {
        /// An agent with jobs or messages waiting.
        case agent(AgentExecutor)
        /// A task that prefers this scheduler.
        case job(UnownedJob)
    }

    /// The shared first-in first-out queue, and the threads asleep for want of work.
    struct RunQueue {
        private var items = FIFOQueue<Runnable>()
        var idleThreads: [Int] = []
        /// Whether a thread spins waiting for work (at most one does).
        var hasSpinner = false

        mutating func claimSpinning() -> Bool {
            if hasSpinner { return false }
            hasSpinner = true
            return true
        }

        /// Lists the thread as asleep unless work waits; returns whether it may sleep.
        mutating func parkUnlessWorkWaits(_ thread: Int) -> Bool {
            guard items.isEmpty else { return false }
            idleThreads.append(thread)
            return true
        }

        /// Whether a thread of a pool shutting down may exit: no work waits (else it takes
        /// it); it is no longer listed as asleep.
        mutating func leaveUnlessWorkWaits(_ thread: Int) -> Bool {
            guard items.isEmpty else { return false }
            idleThreads.removeAll { $0 == thread }
            return true
        }

        var isEmpty: Bool { items.isEmpty }

        mutating func append(_ work: Runnable) { items.append(work) }

        mutating func popFirst() -> Runnable? { items.popFirst() }
    }
}
