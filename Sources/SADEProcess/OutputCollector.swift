#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization

/// Reads a child's output pipe to its end on a thread of its own, keeping everything and
/// waking up those waiting for a line or for the end.
final class OutputCollector: Sendable {
    private struct State {
        var bytes: [UInt8] = []
        var isClosed = false
        var lineWaiters: [(id: Int, needles: [String], continuation: CheckedContinuation<String?, Never>)] = []
        var nextWaiter = 0
        var closeWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// Reads `descriptor` until end-of-file, then closes it.
    init(_ descriptor: Int32) {
        Thread.detachNewThread { [self] in
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                append(buffer[..<count])
            }
            close(descriptor)
            finish()
        }
    }

    var text: String { state.withLock { String(decoding: $0.bytes, as: UTF8.self) } }

    private func append(_ chunk: ArraySlice<UInt8>) {
        let ready = state.withLock { state -> [(CheckedContinuation<String?, Never>, String)] in
            state.bytes += chunk
            guard !state.lineWaiters.isEmpty else { return [] }
            let text = String(decoding: state.bytes, as: UTF8.self)
            var ready: [(CheckedContinuation<String?, Never>, String)] = []
            state.lineWaiters.removeAll { waiter in
                guard let line = Self.completeLine(in: text, containingAny: waiter.needles) else { return false }
                ready.append((waiter.continuation, line))
                return true
            }
            return ready
        }
        for (continuation, line) in ready { continuation.resume(returning: line) }
    }

    private func finish() {
        let (lines, closes) = state.withLock { state in
            state.isClosed = true
            defer { state.lineWaiters = []; state.closeWaiters = [] }
            return (state.lineWaiters.map(\.continuation), state.closeWaiters)
        }
        for continuation in lines { continuation.resume(returning: nil) }
        for continuation in closes { continuation.resume() }
    }

    /// The first complete line containing any of `needles`; `nil` if the pipe closes first
    /// or the waiting task is cancelled (a test past its time limit fails instead of hanging).
    func firstLine(containingAny needles: [String]) async -> String? {
        let id = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let found = state.withLock { state -> String?? in
                    if let line = Self.completeLine(in: String(decoding: state.bytes, as: UTF8.self), containingAny: needles) {
                        return .some(line)
                    }
                    if state.isClosed || Task.isCancelled { return .some(nil) }
                    state.lineWaiters.append((id, needles, continuation))
                    return .none
                }
                if let found { continuation.resume(returning: found) }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                state.lineWaiters.firstIndex { $0.id == id }.map { state.lineWaiters.remove(at: $0).continuation }
            }
            waiter?.resume(returning: nil)
        }
    }

    /// Waits until the pipe is closed (the child and every process it gave the pipe to ended).
    func closed() async {
        await withCheckedContinuation { continuation in
            let done = state.withLock { state in
                if state.isClosed { return true }
                state.closeWaiters.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }

    private static func completeLine(in text: String, containingAny needles: [String]) -> String? {
        // Lines end with "\n" or "\r\n" (one Character to Swift); the last one is incomplete.
        text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).dropLast()
            .first { line in needles.contains { line.contains($0) } }.map(String.init)
    }
}
