import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The process's memory, from `/proc/self/status` and the C allocator.
enum ProcessMemory {
    /// Resident memory now (`VmRSS`), in bytes; 0 where `/proc` is missing.
    static var residentBytes: Int { statusField("VmRSS:") }

    /// Peak resident memory since start or the last ``resetPeak()`` (`VmHWM`), in bytes.
    static var peakResidentBytes: Int { statusField("VmHWM:") }

    /// Starts a new peak (Linux: writing 5 to `/proc/self/clear_refs` resets `VmHWM`),
    /// so that each suite reports its own peak.
    static func resetPeak() {
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return }
        try? handle.write(contentsOf: Data("5".utf8))
        try? handle.close()
    }

    /// Resident memory after handing freed heap pages back to the system (glibc's
    /// `malloc_trim`), so that growth measured from here is what new objects cost even
    /// on a heap warmed by earlier runs.
    static var trimmedResidentBytes: Int {
        trimHeap()
        return residentBytes
    }

    /// Calls `malloc_trim(0)` where the C library has it (looked up at run time: Swift's
    /// Glibc module does not import `malloc.h`).
    private static func trimHeap() {
        #if canImport(Glibc)
        typealias Trim = @convention(c) (Int) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") else { return }
        _ = unsafeBitCast(symbol, to: Trim.self)(0)
        #endif
    }

    private static func statusField(_ name: String) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
        for line in status.split(separator: "\n") where line.hasPrefix(name) {
            let kilobytes = line.dropFirst(name.count).split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) } ?? 0
            return kilobytes * 1024
        }
        return 0
    }
}
