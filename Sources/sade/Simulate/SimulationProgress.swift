import Foundation
import Synchronization

/// Counts what the emulated devices sent and draws a progress bar on standard error.
final class SimulationProgress: Sendable {
    struct Counts {
        var sent = 0
        var accepted = 0
        var rejected = 0
        var failed = 0
        var lastError: String?
    }

    let counts = Mutex(Counts())
    let duration: TimeInterval
    let started = Date()
    let drawsBar: Bool

    init(duration: TimeInterval, drawsBar: Bool) {
        self.duration = duration
        self.drawsBar = drawsBar
    }

    /// Records one request's outcome.
    func record(status: Int?, error: String? = nil) {
        counts.withLock { counts in
            counts.sent += 1
            switch status {
            case .some(200..<300): counts.accepted += 1
            case .some: counts.rejected += 1
            case nil: counts.failed += 1
            }
            if let error { counts.lastError = error }
        }
    }

    /// Redraws the bar.
    func draw() {
        guard drawsBar else { return }
        let counts = counts.withLock { $0 }
        let fraction = min(1, Date().timeIntervalSince(started) / max(duration, 0.001))
        let width = 30
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let line = "\r\(bar) \(Int(fraction * 100))%  sent \(counts.sent)  accepted \(counts.accepted)  rejected \(counts.rejected)  failed \(counts.failed)"
        FileHandle.standardError.write(Data(line.utf8))
    }

    /// Ends the bar's line.
    func finish() {
        draw()
        if drawsBar { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
