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
            guard run.status == 0 else {
                await remove()
                throw MissingTestTool(what: "a network namespace (ip \(arguments.joined(separator: " ")): \(run.error))")
            }
        }
    }

    /// Joins this namespace and `other` by a veth pair, as two hosts on one link:
    /// `10.77.N.1/24` here, `10.77.N.2/24` there, multicast routed over the link.
    /// Returns the two addresses.
    public func link(to other: NetworkNamespace, subnet: Int = 0) async throws -> (here: String, there: String) {
        let suffix = String(UInt16.random(in: 0...UInt16.max), radix: 16)
        let (mine, theirs) = ("sv\(suffix)a", "sv\(suffix)b")
        let (here, there) = ("10.77.\(subnet).1", "10.77.\(subnet).2")
        for arguments in [
            ["link", "add", mine, "netns", name, "type", "veth", "peer", "name", theirs, "netns", other.name],
            ["-n", name, "addr", "add", "\(here)/24", "dev", mine], ["-n", name, "link", "set", mine, "up"],
            ["-n", other.name, "addr", "add", "\(there)/24", "dev", theirs], ["-n", other.name, "link", "set", theirs, "up"],
            ["-n", name, "route", "replace", "224.0.0.0/4", "dev", mine],
            ["-n", other.name, "route", "replace", "224.0.0.0/4", "dev", theirs],
        ] {
            let run = try await SadeProcess(arguments, executable: ip).finish()
            guard run.status == 0 else { throw MissingTestTool(what: "a veth link (ip \(arguments.joined(separator: " ")): \(run.error))") }
        }
        return (here, there)
    }

    /// `sade arguments…` in the namespace.
    public func sade(_ arguments: [String]) throws -> SadeProcess {
        try SadeProcess(["netns", "exec", name, SadeProcess.executable.path] + arguments, executable: ip)
    }

    /// The tests' Python running `arguments…` in the namespace.
    public func python(_ arguments: [String], input: String? = nil) throws -> SadeProcess {
        try SadeProcess(["netns", "exec", name, TestTools.python.path] + arguments, input: input, executable: ip)
    }

    /// Ends `processes` (those still running) and waits for them, then removes `namespaces`:
    /// what a test does when it fails half-way.
    public static func cleanUp(_ processes: [SadeProcess], _ namespaces: NetworkNamespace...) async {
        for process in processes { process.terminate() }
        for process in processes { _ = await process.finish() }
        for namespace in namespaces { await namespace.remove() }
    }

    /// Removes the namespace (its processes must be gone).
    public func remove() async {
        _ = try? await SadeProcess(["netns", "delete", name], executable: ip).finish()
    }
}
