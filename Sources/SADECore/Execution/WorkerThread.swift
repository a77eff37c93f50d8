#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The state of one of an ``AgentScheduler``'s threads, reached through a
/// thread-specific key and touched only by that thread (so it needs no lock, and
/// is deliberately not `Sendable`).
final class WorkerThread {
    let index: Int
    let scheduler: AgentScheduler
    /// Work to run as soon as the current turn ends (not visible to other threads).
    var next: AgentScheduler.Runnable?
    /// How many turns in a row came from ``next``.
    var nextStreak = 0
    /// The agent executor whose turn is running, for isolation checks.
    var running: AgentExecutor?

    init(index: Int, scheduler: AgentScheduler) {
        self.index = index
        self.scheduler = scheduler
    }

    /// The worker state of the calling thread, or `nil` off the schedulers' threads.
    static var current: WorkerThread? {
        pthread_getspecific(key).map { Unmanaged<WorkerThread>.fromOpaque($0).takeUnretainedValue() }
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        precondition(pthread_key_create(&key, nil) == 0, "no thread-specific key for the agent scheduler")
        return key
    }()

    /// The thread's name, given to the system when it starts.
    private(set) var name = ""

    /// Starts the thread, named `name`; it runs the scheduler's loop until the
    /// scheduler shuts down.
    static func start(_ worker: WorkerThread, name: String) {
        worker.name = name
        let context = Unmanaged.passRetained(worker).toOpaque()
        let body: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? = { context in
            // The thread owns the retain taken above, released when its loop ends.
            let worker = Unmanaged<WorkerThread>.fromOpaque(context!).takeRetainedValue()
            pthread_setspecific(WorkerThread.key, Unmanaged.passUnretained(worker).toOpaque())
            // A name for `top -H`, `perf` and debuggers (at most 15 bytes on Linux).
            Thread.current.name = worker.name
            worker.scheduler.work(on: worker)
            pthread_setspecific(WorkerThread.key, nil)
            return nil
        }
        #if canImport(Darwin)
        var thread: pthread_t?
        #else
        var thread = pthread_t()
        #endif
        let result = pthread_create(&thread, nil, body, context)
        precondition(result == 0, "could not start an agent scheduler thread (error \(result))")
        #if canImport(Darwin)
        pthread_detach(thread!)
        #else
        pthread_detach(thread)
        #endif
    }
}
