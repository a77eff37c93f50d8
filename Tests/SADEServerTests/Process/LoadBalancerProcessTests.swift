import Foundation
import SADETestSupport
import SADETestTiming
import Testing

/// `deploy/nginx/sade.conf` in front of two `sade serve` nodes on one database.
@Suite("nginx in front of several nodes", .timeLimit(.minutes(6)), .timed)
struct LoadBalancerProcessTests {
    /// The repository's nginx configuration with the nodes' and nginx's own addresses
    /// put in, inside a minimal nginx.conf in `folder`; the configuration's path.
    static func configuration(in folder: URL, nodes: [Int], port: Int) throws -> URL {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        var site = try String(contentsOf: repository.appendingPathComponent("deploy/nginx/sade.conf"), encoding: .utf8)
        for (placeholder, node) in zip(["10.0.0.11:8080", "10.0.0.12:8080"], nodes) {
            #expect(site.contains(placeholder))
            site = site.replacingOccurrences(of: placeholder, with: "127.0.0.1:\(node)")
        }
        site = site.replacingOccurrences(of: "listen 80;", with: "listen 127.0.0.1:\(port);")
        try site.write(to: folder.appendingPathComponent("sade.conf"), atomically: true, encoding: .utf8)
        let path = folder.path
        let main = """
            daemon off;
            worker_processes 1;
            pid \(path)/nginx.pid;
            error_log \(path)/error.log warn;
            events { worker_connections 256; }
            http {
                access_log off;
                client_body_temp_path \(path)/body;
                proxy_temp_path \(path)/proxy;
                fastcgi_temp_path \(path)/fastcgi;
                uwsgi_temp_path \(path)/uwsgi;
                scgi_temp_path \(path)/scgi;
                include \(path)/sade.conf;
            }
            """
        let file = folder.appendingPathComponent("nginx.conf")
        try main.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    @Test("""
        nginx with deploy/nginx/sade.conf: requests reach both nodes; a sample posted through it reaches a live-event \
        stream opened through it, whichever nodes they land on; a node killed, every request is answered by the other
        """)
    func nginxInFront() async throws {
        try TestTools.requireCommands(["nginx"])
        let nginxPath = try #require(TestTools.locate("nginx"))
        let url = try await PostgresTestServer.makeDatabase()
        let (a, baseA) = try await SeveralNodesProcessTests.node("lb-a", on: url, demo: true)
        defer { a.terminate() }
        let (b, baseB) = try await SeveralNodesProcessTests.node("lb-b", on: url)
        defer { b.terminate() }
        let folder = try TestServer.freshDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let ports = try [baseA, baseB].map { try #require(URL(string: $0)?.port) }
        let (nginx, front) = try await onFreePort { port in
            let nginx = try SadeProcess(
                ["-p", folder.path, "-c", try Self.configuration(in: folder, nodes: ports, port: port).path], executable: URL(fileURLWithPath: nginxPath))
            let front = "http://127.0.0.1:\(port)"
            let answered = await SeveralNodesProcessTests.eventually(within: .seconds(60)) {
                await SeveralNodesProcessTests.health(front) != nil || !nginx.child.isRunning
            }
            if !nginx.child.isRunning {
                let error = await nginx.finish().error
                if PortTaken.isSaid(in: error) { throw PortTaken(error) }
                Issue.record("nginx ended: \(error)")
            }
            #expect(answered, "nginx answers in front of the nodes")
            return (nginx, front)
        }
        defer { nginx.terminate() }

        var answered: Set<String> = []
        for _ in 0..<10 { if let node = await SeveralNodesProcessTests.health(front)?["node"] as? String { answered.insert(node) } }
        #expect(answered == ["lb-a", "lb-b"], "round robin over both nodes")

        let token = try await ServeProcessTests.login(front, "admin")
        let stream = try await EventStream.open(front, token: token)
        defer { stream.close() }
        var events = stream.events.makeAsyncIterator()
        let posted = try await HarnessResponse.json(
            .post, front + "/api/v1/patients/patient-05/observations", token: token,
            [ServeProcessTests.Sample(type: "heartRate", value: 88, start: Date().formatted(.iso8601))])
        #expect(posted.status == .created, "\(posted.text)")
        let id = try #require((posted.object?["ids"] as? [String])?.first)
        let seen = await events.next { event in
            event.name == "samples" && ((event.data["observations"] as? [[String: Any]])?.contains { ($0["id"] as? String)?.lowercased() == id.lowercased() } ?? false)
        }
        #expect(seen != nil, "the live stream through nginx carries the sample")

        a.signal(SIGKILL)
        _ = await a.finish()
        var statuses: [Int] = [], nodes: Set<String> = []
        for _ in 0..<10 {
            let response = try await HarnessResponse.json(.get, front + "/health")
            statuses.append(Int(response.status.code))
            if let node = response.object?["node"] as? String { nodes.insert(node) }
        }
        #expect(statuses == Array(repeating: 200, count: 10) && nodes == ["lb-b"], "nginx skips the dead node: \(statuses)")
        b.signal(SIGTERM)
        #expect(await b.finish().status == 0)
    }
}
