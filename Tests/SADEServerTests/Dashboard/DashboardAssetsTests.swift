import Foundation
import HTTPTypes
import SADETestTiming
import Testing

@Suite("Dashboard: the page and its assets at /", .timeLimit(.minutes(5)), .timed)
struct DashboardAssetsTests {
    @Test("/ is the page; its scripts and styles are served with their types, an entity tag and a strict content-security policy")
    func pageAndAssets() async throws {
        try await ServerHarness.run { harness in
            let page = try await harness.request(.get, "/")
            #expect(page.status == .ok)
            #expect(page.headers[.contentType] == "text/html; charset=utf-8")
            #expect(page.text.contains(#"<script type="module" src="/assets/js/app.js"></script>"#))
            #expect(page.headers[HTTPField.Name("Content-Security-Policy")!]?.contains("default-src 'self'") == true)
            #expect(page.headers[HTTPField.Name("X-Content-Type-Options")!] == "nosniff")
            #expect(try await harness.request(.get, "/index.html").text == page.text)

            let expected = [
                "/assets/js/app.js": "text/javascript; charset=utf-8", "/assets/js/pages/monitor.js": "text/javascript; charset=utf-8",
                "/assets/css/app.css": "text/css; charset=utf-8", "/assets/icon.svg": "image/svg+xml",
            ]
            for (path, type) in expected {
                let asset = try await harness.request(.get, path)
                #expect(asset.status == .ok, "\(path)")
                #expect(asset.headers[.contentType] == type, "\(path)")
                #expect(!asset.text.isEmpty, "\(path)")
            }
        }
    }

    @Test("a repeat visit with the entity tag gets 304; HEAD has no body")
    func conditionalAndHead() async throws {
        try await ServerHarness.run { harness in
            let first = try await harness.request(.get, "/assets/js/app.js")
            let tag = try #require(first.headers[.eTag])
            let again = try await harness.request(.get, "/assets/js/app.js", headers: [.ifNoneMatch: tag])
            #expect(again.status == .notModified)
            #expect(again.text.isEmpty)
            let changed = try await harness.request(.get, "/assets/js/app.js", headers: [.ifNoneMatch: "\"other\""])
            #expect(changed.status == .ok)
            let head = try await harness.request(.head, "/assets/js/app.js")
            #expect(head.status == .ok)
            #expect(head.text.isEmpty)
        }
    }

    @Test("unknown files and paths that try to leave the folder are 404 in the API's error shape; the API is untouched")
    func unknownAndTraversal() async throws {
        try await ServerHarness.run { harness in
            for path in ["/assets/js/nope.js", "/assets/../Package.swift", "/assets/%2e%2e/Package.swift", "/assets/", "/assets//js/app.js"] {
                let answer = try await harness.request(.get, path)
                #expect(answer.status == .notFound, "\(path)")
                #expect(answer.object?["error"] != nil, "\(path): \(answer.text)")
            }
            #expect(try await harness.request(.post, "/assets/js/app.js").status == .notFound, "only GET and HEAD serve files")
            #expect(try await harness.request(.get, "/api/v1/patients").status == .unauthorized)
        }
    }

    @Test("every module the page imports, and every page the router loads, is among the assets")
    func importsResolve() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/SADEServer/Dashboard/Assets")
        let scripts = try FileManager.default.subpathsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".js") }
        #expect(scripts.count >= 8)
        let importPattern = try Regex(#"from '(\.{1,2}/[^']+)'"#)
        for script in scripts {
            let text = try String(contentsOf: folder.appendingPathComponent(script), encoding: .utf8)
            let base = folder.appendingPathComponent(script).deletingLastPathComponent()
            for match in text.matches(of: importPattern) {
                let target = base.appendingPathComponent(String(match.output[1].substring ?? "")).standardizedFileURL.path
                #expect(FileManager.default.fileExists(atPath: target), "\(script) imports a missing \(target)")
            }
        }
        let app = try String(contentsOf: folder.appendingPathComponent("js/app.js"), encoding: .utf8)
        for match in app.matches(of: try Regex(#"page: '([a-z-]+)'"#)) {
            let page = "js/pages/\(match.output[1].substring ?? "").js"
            #expect(scripts.contains(page), "the router loads \(page)")
        }
    }
}
