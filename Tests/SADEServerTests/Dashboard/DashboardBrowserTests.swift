import Foundation
import SADETestSupport
import SADETestTiming
import Testing

/// The dashboard end to end: `Tests/Browser` (Python unittest + Selenium driving Debian's
/// headless Chromium, installed by `scripts/test`) against a real `sade serve --demo` process
/// on loopback. Screenshots of every page go to `.build/dashboard-screenshots`.
@Suite("Dashboard in a real browser", .timeLimit(.minutes(10)), .timed)
struct DashboardBrowserTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    @Test("""
        the browser suite passes: a nurse's patients, the live monitor and charts, a live alert acknowledged, exports, phone \
        width and keyboard, the admin pages, the wearable pages, the issue track and the homes (a carer's flats, the live floor \
        plan, an actuator round trip, a home alarm confirmed, the charts, a new flat), the agents' introspector and sniffer (an \
        alert's Contract Net as a sequence diagram, a goal changing status, a request to echo answered)
        """)
    func browserSuite() async throws {
        try TestTools.requireCommands(["chromium", "chromedriver"])
        try await TestTools.requirePython(modules: ["selenium"])
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("sade-browser-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: data) }
        let (server, url) = try await ServeProcessTests.serve(["--demo", "--data", data])
        defer { server.terminate() }
        let screenshots = Self.repository.appendingPathComponent(".build/dashboard-screenshots").path
        try? FileManager.default.removeItem(atPath: screenshots)  // only this run's screenshots count
        let suite = try SadeProcess(
            [Self.repository.appendingPathComponent("Tests/Browser/run_browser_tests.py").path, "--url", url, "--screenshots", screenshots],
            executable: TestTools.python)
        let result = await suite.finish()
        #expect(result.status == 0, "browser suite failed:\n\(result.output)\n\(result.error.suffix(6000))")
        let ran = result.output.split(separator: "\n").first { $0.hasPrefix("Ran ") }
        #expect(ran != nil && ran?.hasPrefix("Ran 0 ") == false, "\(result.output.suffix(2000))")
        let pages = [
            "patients", "monitor", "alerts", "patients-phone",
            "admin", "admin-staff", "admin-patients", "admin-patient", "admin-projects", "admin-project-data",
            "admin-patients-phone", "admin-projects-phone", "admin-audit",
            "wearable-register", "wearable-data", "wearable-map", "wearable-data-phone", "wearable-map-phone",
            "issues", "issues-admin", "issues-phone",
            "homes", "home-plan", "home-device", "home-messages", "home-energy", "home-activity", "home-batteries", "home-new",
            "homes-phone", "home-plan-phone", "agents", "agents-reasoning", "sniffer", "sniffer-phone",
        ]
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
