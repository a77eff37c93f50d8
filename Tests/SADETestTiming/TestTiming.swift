import Foundation
import Testing

/// Records how long each test case ran — from when it got its turn to run, not from when
/// it was queued (Swift Testing runs a bounded number at once: `scripts/test` sets the
/// width) — and when it got it (seconds since the first test began), as one line in the
/// file `SADE_TEST_TIMINGS` names, for `scripts/test` to print the slowest. Without that
/// variable it records nothing.
///
/// Every suite carries it (`@Suite("…", .timed)`), recursively: it times each test in it.
public struct TestTiming: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        guard testCase != nil, !test.isSuite, let file = Self.file else { return try await function() }
        let first = Self.firstStart, started = ContinuousClock.now
        let offset = (started - first) / .seconds(1)
        defer {
            let seconds = (ContinuousClock.now - started) / .seconds(1)
            let name = (test.displayName ?? test.name).replacingOccurrences(of: "\n", with: " ")
            let suite = test.id.nameComponents.dropLast().last ?? test.id.moduleName
            let line = "\(String(format: "%.3f", seconds))\t\(String(format: "%.1f", offset))\t\(test.id.moduleName).\(suite)\t\(test.isParameterized ? "[one case] " : "")\(name)\n"
            Self.append(line, to: file)
        }
        try await function()
    }

    /// When the first test case began (this is first read then).
    private static let firstStart = ContinuousClock.now

    /// The file `SADE_TEST_TIMINGS` names, if any.
    private static let file = ProcessInfo.processInfo.environment["SADE_TEST_TIMINGS"].flatMap { $0.isEmpty ? nil : $0 }

    /// Appends `line` in one write: lines of tests ending together never mix.
    private static func append(_ line: String, to path: String) {
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        var bytes = Array(line.utf8)
        _ = bytes.withUnsafeMutableBytes { write(descriptor, $0.baseAddress, $0.count) }
    }
}

extension Trait where Self == TestTiming {
    /// Times every test of the suite for `scripts/test` (``TestTiming``).
    public static var timed: Self { TestTiming() }
}
