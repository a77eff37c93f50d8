import Foundation
import HTTPTypes
import Hummingbird
import AsyncHTTPClient
import Logging
import Metrics
import NIOHTTP1
import Prometheus
import ServiceLifecycle
import SADECore
import SADEHealth
import SADEIssueTrack
import SADEMonitoring
import SADENotification
import SADEServer
import SADEPostgres

/// A monitoring server on loopback for one test: an in-memory system on a manual
/// clock, an `admin` account (password ``ServerHarness/password``), listening on a
/// free port and asked with AsyncHTTPClient.
struct ServerHarness: Sendable {
    /// Every account the harness makes has this password.
    static let password = "correct-horse"
    /// The date at which the manual clock reads zero.
    static let epoch = Date(timeIntervalSince1970: 1_795_000_000)

    let system: MonitoringSystem
    let server: MonitoringServer
    let clock: ManualClock
    /// The port the server listens on (loopback).
    let port: Int

    /// Runs `body` against a fresh server; `configure` adjusts the server's settings.
    /// The server has an empty issue track (its e-mail through `issueTrackMail`), or
    /// none when `issueTrack` is false. What the server and its system measure goes to a
    /// Prometheus registry of their own (bound to the task), shown at `/metrics`.
    static func run(
        configure: (inout ServerConfiguration) -> Void = { _ in }, issueTrack: Bool = true,
        issueTrackMail: [any NotificationChannel] = [], issueAnswers: Duration? = nil, healthStore: (any HealthStore & ClinicalRegistry)? = nil,
        accountRecords: (any AccountRecords & DeviceTokenRecords)? = nil, postgres: PostgresPool? = nil,
        push: PushConfiguration? = PushConfiguration(key: VAPIDKey(contact: "mailto:ops@hospital.test")),
        _ body: @Sendable (ServerHarness) async throws -> Void
    ) async throws {
        var configuration = ServerConfiguration(port: 0, tokenSecret: "test-secret-test-secret-test-secret")
        configure(&configuration)
        try await withMetricsFactory(ServerMetrics.factory(PrometheusCollectorRegistry())) { [configuration] in
            try await runMeasured(
                configuration: configuration, issueTrack: issueTrack, issueTrackMail: issueTrackMail, issueAnswers: issueAnswers, healthStore: healthStore,
                accountRecords: accountRecords, postgres: postgres, push: push, body)
        }
    }

    private static func runMeasured(
        configuration: ServerConfiguration, issueTrack: Bool, issueTrackMail: [any NotificationChannel], issueAnswers: Duration?,
        healthStore: (any HealthStore & ClinicalRegistry)?, accountRecords: (any AccountRecords & DeviceTokenRecords)?, postgres: PostgresPool?,
        push: PushConfiguration?, _ body: @Sendable (ServerHarness) async throws -> Void
    ) async throws {
        let clock = ManualClock()
        let system = try await MonitoringSystem(
            configuration: .init(dataDirectory: nil, passwordHasher: .fastForTests, push: push, clock: clock, epoch: epoch, healthStore: healthStore,
                accountRecords: accountRecords, postgres: postgres))
        try await system.accounts.create(UserAccount(username: "admin", name: "Ada Admin", role: .admin), password: password)
        var office: IssueTrackOffice?
        if issueTrack {
            let company = Environment(name: "company", clock: clock)
            let store = try SQLiteCompanyStore(directory: nil)
            office = IssueTrackOffice(
                store: store,
                outbox: try NotificationOutbox(directory: nil, channels: issueTrackMail, clock: OutboxClock(clock: company.clock, origin: epoch)),
                platform: company, people: issueAnswers.map { .reached(through: system, deadline: $0, store: store) })
        }
        let server = await MonitoringServer(system: system, configuration: configuration, issueTrack: office)
        try await system.start()
        try await office?.start()
        var quiet = Logger(label: "sade.test-server")
        quiet.logLevel = .warning
        let (ports, portSink) = AsyncStream.makeStream(of: Int.self)
        let application = try server.makeApplication(logger: quiet) { port in portSink.yield(port) }
        let group = ServiceGroup(configuration: .init(services: [application], logger: quiet))
        let running = Task { try await group.run() }
        var outcome: Result<Void, any Error> = .success(())
        var portIterator = ports.makeAsyncIterator()
        if let port = await portIterator.next() {
            do { try await body(ServerHarness(system: system, server: server, clock: clock, port: port)) } catch { outcome = .failure(error) }
        }
        await group.triggerGracefulShutdown()
        // A shutdown that hangs on a live stream ends with the test's time limit: cancelled,
        // the group cancels its server's handlers (not those of connections that sent no
        // request, which wait on NIO futures: the server closes those itself).
        try await withTaskCancellationHandler { try await running.value } onCancel: { running.cancel() }
        await office?.shutdown()
        await system.shutdown()
        try outcome.get()
    }

    /// Adds an account with ``password``.
    @discardableResult
    func createAccount(_ username: String, role: UserRole, staffID: String? = nil, patientID: PatientID? = nil) async throws -> UserAccount {
        try await system.accounts.create(
            UserAccount(username: username, name: username.capitalized, role: role, staffID: staffID, patientID: patientID),
            password: Self.password)
    }

    /// Logs in and returns the bearer token.
    func login(_ username: String, password: String = ServerHarness.password) async throws -> String {
        let response = try await request(.post, "/api/v1/auth/login", json: ["username": username, "password": password])
        guard response.status == .ok, let token = response.object?["token"] as? String else {
            throw HarnessError.loginFailed(username, response.status.code, response.text)
        }
        return token
    }

    /// Sends a request with an optional bearer token and a JSON body (an encodable
    /// value, or raw text when `raw` is given).
    func request(
        _ method: HTTPRequest.Method, _ path: String, token: String? = nil, json: (any Encodable & Sendable)? = nil, raw: String? = nil,
        headers extra: HTTPFields = [:]
    ) async throws -> HarnessResponse {
        var headers = extra
        if let token { headers[.authorization] = "Bearer \(token)" }
        var body: ByteBuffer?
        if let json {
            body = ByteBuffer(bytes: try JSONEncoder().encode(json))
            headers[.contentType] = "application/json"
        } else if let raw {
            body = ByteBuffer(string: raw)
            headers[.contentType] = "application/json"
        }
        return try await HarnessResponse.fetch(method, "http://127.0.0.1:\(port)\(path)", headers: headers, body: body)
    }
}

/// What the server answered.
struct HarnessResponse: Sendable {
    let status: HTTPResponse.Status
    let headers: HTTPFields
    let body: Data

    var text: String { String(decoding: body, as: UTF8.self) }
    /// The body as a JSON object, if it is one.
    var object: [String: Any]? { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] }
    /// The body as a JSON array, if it is one.
    var array: [Any]? { (try? JSONSerialization.jsonObject(with: body)) as? [Any] }
    /// The `error.code` of an error answer.
    var errorCode: String? { (object?["error"] as? [String: Any])?["code"] as? String }
    /// The `error.message` of an error answer.
    var errorMessage: String? { (object?["error"] as? [String: Any])?["message"] as? String }
}

extension HarnessResponse {
    /// Sends a request with AsyncHTTPClient and collects the answer.
    static func fetch(_ method: HTTPRequest.Method, _ url: String, headers: HTTPFields = [:], body: ByteBuffer? = nil) async throws -> HarnessResponse {
        var request = HTTPClientRequest(url: url)
        request.method = HTTPMethod(rawValue: method.rawValue)
        for field in headers { request.headers.add(name: field.name.rawName, value: field.value) }
        if let body { request.body = .bytes(body) }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let data = try await response.body.collect(upTo: 64 << 20)
        var fields = HTTPFields()
        for (name, value) in response.headers { if let name = HTTPField.Name(name) { fields.append(HTTPField(name: name, value: value)) } }
        return HarnessResponse(status: HTTPResponse.Status(code: Int(response.status.code)), headers: fields, body: Data(buffer: data))
    }

    /// Sends JSON to `url`, with a bearer token if given.
    static func json(_ method: HTTPRequest.Method, _ url: String, token: String? = nil, _ value: (any Encodable & Sendable)? = nil) async throws -> HarnessResponse {
        var headers = HTTPFields()
        if let token { headers[.authorization] = "Bearer \(token)" }
        var body: ByteBuffer?
        if let value {
            headers[.contentType] = "application/json"
            body = ByteBuffer(bytes: try JSONEncoder().encode(value))
        }
        return try await fetch(method, url, headers: headers, body: body)
    }
}

enum HarnessError: Error {
    case loginFailed(String, Int, String)
}
