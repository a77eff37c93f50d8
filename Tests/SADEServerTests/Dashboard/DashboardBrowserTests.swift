import Foundation
import SADETestSupport
import SADETestTiming
import Testing

/// The dashboard end to end: `Tests/Browser` (Python unittest + Selenium driving Debian's
/// headless Chromium, installed by `scripts/test`) against a real `sade serve --demo` process
/// on loopback. Screenshots of every page go to `.build/dashboard-screenshots`.
@Suite("Dashboard in a real browser", .timeLimit(.minutes(15)), .timed)
struct DashboardBrowserTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The browser suite in three parts, each against a `sade serve --demo` of its own, so
    /// that no one test holds one of the few places to run for minutes: the test files
    /// of a part, and the pages each leaves a screenshot of.
    static let parts: [(files: [String], pages: [String])] = [
        (["test_clinician.py", "test_issues.py", "test_relative.py"],
         ["patients", "monitor", "alerts", "patients-phone", "issues", "issues-admin", "issues-phone", "relative-home", "relative-patient"]),
        (["test_admin.py", "test_wearable.py", "test_phone.py"],
         ["admin", "admin-staff", "admin-patients", "admin-patient", "admin-projects", "admin-project-data", "admin-patients-phone",
          "admin-projects-phone", "admin-audit", "wearable-register", "wearable-data", "wearable-map", "wearable-data-phone",
          "wearable-map-phone", "wearable-post-phone"]),
        (["test_homes.py", "test_agents.py"],
         ["homes", "home-plan", "home-device", "home-messages", "home-energy", "home-activity", "home-batteries", "home-new", "homes-phone",
          "home-plan-phone", "agents", "agents-reasoning", "sniffer", "sniffer-phone"]),
    ]

    @Test("every test file of Tests/Browser is in one part of the browser suite, once")
    func partsCoverEveryFile() throws {
        let browser = Self.repository.appendingPathComponent("Tests/Browser").path
        let files = try FileManager.default.contentsOfDirectory(atPath: browser).filter { $0.hasPrefix("test_") && $0.hasSuffix(".py") }
        #expect(Self.parts.flatMap(\.files).sorted() == files.sorted())
    }

    @Test("""
        the browser suite passes: a nurse's patients, the live monitor and charts, a live alert acknowledged, exports, phone \
        width and keyboard, the admin pages, the wearable pages, the issue track and the homes (a carer's flats, the live floor \
        plan, an actuator round trip, a home alarm confirmed, the charts, a new flat), the app installable and offline with a push on its lock screen, the agents' introspector and sniffer (an \
        alert's Contract Net as a sequence diagram, a goal changing status, a request to echo answered)
        """, arguments: parts.indices)
    func browserSuite(part: Int) async throws {
        let (files, pages) = Self.parts[part]
        try TestTools.requireCommands(["chromium", "chromedriver"])
        try await TestTools.requirePython(modules: ["selenium"])
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("sade-browser-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: data) }
        let (server, url) = try await ServeProcessTests.serve(["--demo", "--data", data])
        defer { server.terminate() }
        let screenshots = Self.repository.appendingPathComponent(".build/dashboard-screenshots/part-\(part + 1)").path
        try? FileManager.default.removeItem(atPath: screenshots)  // only this run's screenshots count
        let suite = try SadeProcess(
            [Self.repository.appendingPathComponent("Tests/Browser/run_browser_tests.py").path, "--url", url, "--screenshots", screenshots] + files,
            executable: TestTools.python)
        let result = await suite.finish()
        #expect(result.status == 0, "browser suite failed:\n\(result.output)\n\(result.error.suffix(6000))")
        let ran = result.output.split(separator: "\n").first { $0.hasPrefix("Ran ") }
        #expect(ran != nil && ran?.hasPrefix("Ran 0 ") == false, "\(result.output.suffix(2000))")
        for page in pages {
            #expect(FileManager.default.fileExists(atPath: "\(screenshots)/\(page).png"), "a screenshot of \(page)")
        }
    }

    @Test("over HTTPS with a test CA's certificate, a nurse logs in and her monitor updates live (Tests/Browser/tls_dashboard.py)")
    func dashboardOverTLS() async throws {
        try TestTools.requireCommands(["chromium", "chromedriver"])
        try await TestTools.requirePython(modules: ["selenium"])
        let authority = try await TestCertificateAuthority.make()
        defer { authority.remove() }
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("sade-browser-tls-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: data) }
        let server = try SadeProcess([
            "serve", "--port", "0", "--demo", "--data", data, "--tls-cert", authority.serverCertificate, "--tls-key", authority.serverKey,
        ])
        defer { server.terminate() }
        guard let line = await server.line(containing: "listening on https://"), let url = line.split(separator: " ").last.map(String.init) else {
            Issue.record("serve did not listen: \(await server.finish().error)")
            return
        }
        let suite = try SadeProcess(
            [
                Self.repository.appendingPathComponent("Tests/Browser/run_browser_tests.py").path, "--url", url,
                "--ca-file", authority.certificateAuthority, "--certificate-spki", try await authority.serverKeyHash(), "tls_*.py",
            ],
            executable: TestTools.python)
        let result = await suite.finish()
        #expect(result.status == 0, "browser suite over TLS failed:\n\(result.output)\n\(result.error.suffix(6000))")
        #expect(result.output.contains("Ran 1 test"), "\(result.output.suffix(2000))")
    }
}
