import Foundation
import Synchronization

/// The outside tools some tests need (Python packages, Chromium, openssl), found the way
/// `scripts/test` installs them. A missing one is a ``MissingTestTool`` error that names
/// the command to run, never a crash or a stack trace.
public enum TestTools {
    /// The repository's root folder.
    public static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The tests' Python: `SADE_TEST_PYTHON` (set by `scripts/test`), else the virtual
    /// environment `scripts/test` makes under `.build`, else `python3` on the path.
    public static var python: URL {
        if let chosen = ProcessInfo.processInfo.environment["SADE_TEST_PYTHON"], !chosen.isEmpty {
            return URL(fileURLWithPath: chosen)
        }
        let venv = repository.appendingPathComponent(".build/python-venv/bin/python3")
        if FileManager.default.isExecutableFile(atPath: venv.path) { return venv }
        return URL(fileURLWithPath: "/usr/bin/python3")
    }

    /// Throws ``MissingTestTool`` unless the tests' Python can import every one of `modules`.
    public static func requirePython(modules: [String]) async throws {
        var missing: [String] = []
        for module in modules where !(await importable(module)) { missing.append(module) }
        guard missing.isEmpty else { throw MissingTestTool(what: "Python package \(missing.joined(separator: ", ")) for \(python.path)") }
    }

    /// Throws ``MissingTestTool`` unless every one of `commands` is on the path.
    public static func requireCommands(_ commands: [String]) throws {
        let missing = commands.filter { locate($0) == nil }
        guard missing.isEmpty else { throw MissingTestTool(what: "command \(missing.joined(separator: ", "))") }
    }

    /// Where `command` is on the path, or in the system's own folders (`nginx` is in
    /// `/usr/sbin`, which a user's path may leave out), if it is.
    public static func locate(_ command: String) -> String? {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin") + ":/usr/local/sbin:/usr/sbin:/sbin"
        return path.split(separator: ":").map { "\($0)/\(command)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    private static let imports = Mutex<[String: Bool]>([:])

    private static func importable(_ module: String) async -> Bool {
        if let known = imports.withLock({ $0[module] }) { return known }
        let found = (try? await SadeProcess(["-c", "import \(module)"], executable: python).finish().status) == 0
        imports.withLock { $0[module] = found }
        return found
    }
}

/// A tool a test needs is not installed; `scripts/test` installs it.
public struct MissingTestTool: Error, CustomStringConvertible {
    /// What is missing, e.g. "Python package aiosmtpd for /usr/bin/python3".
    public let what: String

    /// `what` is missing.
    public init(what: String) { self.what = what }

    public var description: String {
        "\(what) is missing: run `scripts/test` (the README's test command), which installs what the tests need"
    }
}
