import Foundation

/// A network namespace of its own for one test (root only: CI runs as root): a host
/// whose loopback carries multicast, so that the processes started in it find each other
/// by mDNS and nothing outside hears them.
public final class NetworkNamespace: Sendable {
    public let name = "sade-\(UInt32.random(in: 0...UInt32.max))"
    public let ip: URL

    public init() async throws {
        guard getuid() == 0 else { throw MissingTestTool(what: "root, to make network namespaces (ip netns): run the tests as root, as CI does") }
        try TestTools.requireCommands(["ip"])
        ip = URL(fileURLWithPath: TestTools.locate("ip")!)
        for arguments in [
            ["netns", "add", name], ["netns", "exec", name, "ip", "link", "set", "lo", "up"],
            ["netns", "exec", name, "ip", "link", "set", "lo", "multicast", "on"],
            ["netns", "exec", name, "ip", "route", "add", "224.0.0.0/4", "dev", "lo"],
        ] {
            let run = try await SadeProcess(arguments, executable: ip).finish()
            guard run.status == 0 else { throw MissingTestTool(what: "a network namespace (ip \(arguments.joined(separator: " ")): \(run.error))") }
        }
    }

    /// `sade arguments…` in the namespace.
    public func sade(_ arguments: [String]) throws -> SadeProcess {
        try SadeProcess(["netns", "exec", name, SadeProcess.executable.path] + arguments, executable: ip)
    }

    /// The tests' Python running `arguments…` in the namespace.
    public func python(_ arguments: [String], input: String? = nil) throws -> SadeProcess {
        try SadeProcess(["netns", "exec", name, TestTools.python.path] + arguments, input: input, executable: ip)
    }

    /// Removes the namespace (its processes must be gone).
    public func remove() async {
        _ = try? await SadeProcess(["netns", "delete", name], executable: ip).finish()
    }
}
