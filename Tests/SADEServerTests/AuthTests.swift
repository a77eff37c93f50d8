import Foundation
import HTTPTypes
import SADETestSupport
import SADETestTiming
import Testing
import SADEMonitoring
@testable import SADEServer

@Suite("Login and tokens", .timeLimit(.minutes(5)), .timed)
struct AuthTests {
    @Test("logging in returns a bearer token and the user; the token identifies the caller")
    func login() async throws {
        try await ServerHarness.run { harness in
            let response = try await harness.request(.post, "/api/v1/auth/login", json: ["username": "ADMIN", "password": ServerHarness.password])
            #expect(response.status == .ok)
            let user = try #require(response.object?["user"] as? [String: Any])
            #expect(user["username"] as? String == "admin")
            #expect(user["role"] as? String == "admin")
            #expect(user["passwordHash"] == nil && !response.text.contains("$2"))
            let token = try #require(response.object?["token"] as? String)
            let me = try await harness.request(.get, "/api/v1/auth/me", token: token)
            #expect(me.status == .ok)
            #expect(me.object?["username"] as? String == "admin")
        }
    }

    @Test("a wrong password, an unknown user, a missing field and bad JSON are refused with JSON errors")
    func badLogins() async throws {
        try await ServerHarness.run { harness in
            let wrong = try await harness.request(.post, "/api/v1/auth/login", json: ["username": "admin", "password": "nope-nope-nope"])
            #expect(wrong.status == .unauthorized)
            #expect(wrong.errorCode == "unauthenticated")
            let unknown = try await harness.request(.post, "/api/v1/auth/login", json: ["username": "ghost", "password": "whatever1"])
            #expect(unknown.status == .unauthorized)
            let missing = try await harness.request(.post, "/api/v1/auth/login", json: ["username": "admin"])
            #expect(missing.status == .badRequest)
            #expect(missing.errorMessage?.contains("password") == true)
            let garbage = try await harness.request(.post, "/api/v1/auth/login", raw: "{\"username\": ")
            #expect(garbage.status == .badRequest)
            #expect(garbage.errorCode == "invalid-body")
        }
    }

    @Test("a token expires after its lifetime on the server's clock; tampered tokens are refused")
    func expiry() async throws {
        try await ServerHarness.run(configure: { $0.tokenLifetime = 60 }) { harness in
            let token = try await harness.login("admin")
            #expect(try await harness.request(.get, "/api/v1/auth/me", token: token).status == .ok)
            var tampered = Array(token)
            tampered[tampered.count - 3] = tampered[tampered.count - 3] == "A" ? "B" : "A"
            let forged = try await harness.request(.get, "/api/v1/auth/me", token: String(tampered))
            #expect(forged.status == .unauthorized)
            harness.clock.advance(by: .seconds(61))
            let expired = try await harness.request(.get, "/api/v1/auth/me", token: token)
            #expect(expired.status == .unauthorized)
            #expect(expired.errorMessage?.contains("expired") == true)
            let anonymous = try await harness.request(.get, "/api/v1/auth/me")
            #expect(anonymous.status == .unauthorized)
            #expect(anonymous.headers[.wwwAuthenticate] == "Bearer")
        }
    }

    @Test("unknown routes and oversized bodies answer in the same JSON error shape")
    func errorShape() async throws {
        try await ServerHarness.run(configure: { $0.maxBodyBytes = 1000 }) { harness in
            let missing = try await harness.request(.get, "/api/v1/nothing-here")
            #expect(missing.status == .notFound)
            #expect(missing.errorCode == "not-found")
            let big = try await harness.request(
                .post, "/api/v1/auth/login", raw: "{\"username\": \"\(String(repeating: "a", count: 5000))\", \"password\": \"x\"}")
            #expect(big.status == .contentTooLarge)
            #expect(big.errorCode == "body-too-large")
        }
    }

    @Test("""
        a client that writes its whole oversized body before reading (Python's urllib, Connection: close) gets its 413; one whose \
        body goes far beyond the limit is cut off at once — neither waits for its own time-out
        """)
    func oversizedBodiesWrittenWhole() async throws {
        try await TestTools.requirePython(modules: [])
        try await ServerHarness.run(configure: { $0.maxBodyBytes = 100_000 }) { harness in
            let script = """
                import sys, urllib.request, urllib.error
                url, size = sys.argv[1], int(sys.argv[2])
                request = urllib.request.Request(url, data=b"x" * size, method="POST", headers={"Content-Type": "application/json"})
                try:
                    urllib.request.urlopen(request, timeout=30)
                    print("answered 2xx")
                except urllib.error.HTTPError as error:
                    print("answered", error.code, error.read().decode())
                except (ConnectionError, urllib.error.URLError) as error:
                    print("cut off", type(getattr(error, "reason", error)).__name__)
                """
            let url = "http://127.0.0.1:\(harness.port)/api/v1/auth/login"
            let drained = try await SadeProcess.python(["-c", script, url, "\(12 << 20)"], modules: [])  // more than the sockets buffer
            #expect(drained.output.hasPrefix("answered 413") && drained.output.contains("body-too-large"), "\(drained.output) \(drained.error)")
            let cutOff = try await SadeProcess.python(["-c", script, url, "\(64 << 20)"], modules: [])
            #expect(cutOff.output.hasPrefix("cut off") || cutOff.output.hasPrefix("answered 413"), "\(cutOff.output) \(cutOff.error)")
            #expect(!cutOff.output.contains("timed out") && !cutOff.output.contains("timeout"), "\(cutOff.output)")
        }
    }

    @Test("a new password or a new role ends the sessions begun before: their tokens are refused, a new login works")
    func credentialChangesRevokeTokens() async throws {
        try await ServerHarness.run { harness in
            let admin = try await harness.login("admin")
            let created = try await harness.request(
                .post, "/api/v1/users", token: admin,
                json: ["username": "nora", "name": "Nora", "role": "admin", "password": "first-password"])
            #expect(created.status == .created, "\(created.text)")
            let id = try #require(created.object?["id"] as? String)
            let first = try await harness.login("nora", password: "first-password")
            #expect(try await harness.request(.get, "/api/v1/auth/me", token: first).status == .ok)

            harness.clock.advance(by: .seconds(1))
            let changed = try await harness.request(.post, "/api/v1/users/\(id)/password", token: admin, json: ["password": "second-password"])
            #expect(changed.status == .noContent, "\(changed.text)")
            let refused = try await harness.request(.get, "/api/v1/auth/me", token: first)
            #expect(refused.status == .unauthorized)
            #expect(refused.errorMessage?.contains("password or role changed") == true, "\(refused.text)")
            let second = try await harness.login("nora", password: "second-password")
            #expect(try await harness.request(.get, "/api/v1/auth/me", token: second).status == .ok)

            harness.clock.advance(by: .seconds(1))
            let demoted = try await harness.request(.put, "/api/v1/users/\(id)", token: admin, json: ["role": "nurse"])
            #expect(demoted.status == .ok, "\(demoted.text)")
            #expect(try await harness.request(.get, "/api/v1/auth/me", token: second).status == .unauthorized, "the role changed")
            harness.clock.advance(by: .seconds(1))
            let renamed = try await harness.request(.put, "/api/v1/users/\(id)", token: admin, json: ["name": "Nora B"])
            #expect(renamed.status == .ok, "\(renamed.text)")
            let third = try await harness.login("nora", password: "second-password")
            #expect(try await harness.request(.put, "/api/v1/users/\(id)", token: admin, json: ["name": "Nora C"]).status == .ok)
            #expect(try await harness.request(.get, "/api/v1/auth/me", token: third).status == .ok, "a new name ends no session")
        }
    }

    @Test("""
        a password changed in the very instant of a login: the token from before the change is refused, the one after it \
        works until a new role in that same instant
        """)
    func credentialChangeInTheSameInstant() async throws {
        try await ServerHarness.run { harness in
            let admin = try await harness.login("admin")
            let created = try await harness.request(
                .post, "/api/v1/users", token: admin,
                json: ["username": "otto", "name": "Otto", "role": "admin", "password": "first-password"])
            #expect(created.status == .created, "\(created.text)")
            let id = try #require(created.object?["id"] as? String)
            // The clock does not move: the login, the change and the next login share one instant.
            let before = try await harness.login("otto", password: "first-password")
            let changed = try await harness.request(.post, "/api/v1/users/\(id)/password", token: admin, json: ["password": "second-password"])
            #expect(changed.status == .noContent, "\(changed.text)")
            let refused = try await harness.request(.get, "/api/v1/auth/me", token: before)
            #expect(refused.status == .unauthorized, "issued before the change, in the same instant")
            let after = try await harness.login("otto", password: "second-password")
            #expect(try await harness.request(.get, "/api/v1/auth/me", token: after).status == .ok, "issued after it, in the same instant")
            // A new role in that same instant ends the session just begun too.
            let demoted = try await harness.request(.put, "/api/v1/users/\(id)", token: admin, json: ["role": "nurse"])
            #expect(demoted.status == .ok, "\(demoted.text)")
            #expect(try await harness.request(.get, "/api/v1/auth/me", token: after).status == .unauthorized, "the role changed")
        }
    }

    @Test("""
        five failed logins in a row for one account make the next wait, doubling, the right password refused too; a \
        success clears the count; an unknown username is answered the same way
        """)
    func loginBackOffPerAccount() async throws {
        try await ServerHarness.run { harness in
            func login(_ username: String, _ password: String) async throws -> HarnessResponse {
                try await harness.request(.post, "/api/v1/auth/login", json: ["username": username, "password": password])
            }
            for _ in 0..<5 { #expect(try await login("admin", "wrong-guess").status == .unauthorized) }
            let waiting = try await login("ADMIN", ServerHarness.password)  // another case, the right password
            #expect(waiting.status == .tooManyRequests && waiting.errorCode == "too-many-requests")
            #expect(waiting.headers[.retryAfter] == "1")
            harness.clock.advance(by: .seconds(1))
            #expect(try await login("admin", "wrong-again").status == .unauthorized, "the wait is over: one more try")
            #expect(try await login("admin", ServerHarness.password).headers[.retryAfter] == "2", "the wait doubles")
            harness.clock.advance(by: .seconds(2))
            #expect(try await login("admin", ServerHarness.password).status == .ok)
            #expect(try await login("admin", "wrong-once").status == .unauthorized, "the count started again")
            #expect(try await login("admin", ServerHarness.password).status == .ok)

            for _ in 0..<5 { #expect(try await login("nobody-here", "guess").status == .unauthorized) }
            #expect(try await login("nobody-here", "guess").status == .tooManyRequests, "unknown usernames are not told apart")
        }
    }

    @Test("every answer carries the security headers, errors included; the API's are not cached; the dashboard keeps its own policy")
    func securityHeaders() async throws {
        try await ServerHarness.run { harness in
            let health = try await harness.request(.get, "/health")
            let refused = try await harness.request(.get, "/api/v1/patients")
            let page = try await harness.request(.get, "/")
            for answer in [health, refused, page] {
                #expect(answer.headers[HTTPField.Name("X-Content-Type-Options")!] == "nosniff")
                #expect(answer.headers[HTTPField.Name("Referrer-Policy")!] == "no-referrer")
                #expect(answer.headers[HTTPField.Name("X-Frame-Options")!] == "DENY")
                #expect(answer.headers[.strictTransportSecurity] == nil, "plain HTTP: no HSTS")
            }
            #expect(refused.status == .unauthorized)
            #expect(refused.headers[.cacheControl] == "no-store")
            #expect(refused.headers[.contentSecurityPolicy] == "default-src 'none'; frame-ancestors 'none'")
            #expect(page.headers[.contentSecurityPolicy]?.hasPrefix("default-src 'self'") == true, "the dashboard's own policy")
        }
    }

    @Test("a client that floods gets 429 with Retry-After, others are still served")
    func rateLimit() async throws {
        try await ServerHarness.run(configure: { $0.requestsPerSecond = 0.0001; $0.requestBurst = 3 }) { harness in
            var statuses: [Int] = []
            for _ in 0..<5 { statuses.append(try await harness.request(.get, "/health").status.code) }
            #expect(statuses.prefix(3).allSatisfy { $0 == 200 })
            #expect(statuses.last == 429)
            let limited = try await harness.request(.get, "/health")
            #expect(limited.errorCode == "too-many-requests")
            #expect(limited.headers[.retryAfter] != nil)
        }
    }

    @Test("login attempts are limited per address, apart from other requests; passwords with NUL are refused")
    func loginFlood() async throws {
        // A rate so low that no attempt is refilled while the test runs, however slow the machine.
        try await ServerHarness.run(configure: { $0.loginAttemptsPerSecond = 0.0001; $0.loginBurst = 5 }) { harness in
            var statuses: [Int] = []
            for _ in 0..<6 {
                statuses.append(try await harness.request(.post, "/api/v1/auth/login", json: ["username": "admin", "password": "wrong-password"]).status.code)
            }
            #expect(statuses == [401, 401, 401, 401, 401, 429])
            #expect(try await harness.request(.post, "/Api/User/login", json: ["username": "admin", "password": "x"]).status == .tooManyRequests)
            #expect(try await harness.request(.get, "/health").status == .ok)
        }
        try await ServerHarness.run { harness in
            let nul = try await harness.request(.post, "/api/v1/auth/login", json: ["username": "admin", "password": ServerHarness.password + "\u{0}zzz"])
            #expect(nul.status == .unauthorized)
        }
    }

    @Test("behind a trusted proxy, login attempts are limited per forwarded client; anyone else's X-Forwarded-For is ignored")
    func clientsBehindAProxy() async throws {
        @Sendable func attempts(_ harness: ServerHarness, from client: String, _ count: Int) async throws -> [Int] {
            var statuses: [Int] = []
            for _ in 0..<count {
                statuses.append(
                    try await harness.request(
                        .post, "/api/v1/auth/login", json: ["username": "admin", "password": "wrong-password"],
                        headers: [.forwardedFor: "203.0.113.9, \(client)"]
                    ).status.code)
            }
            return statuses
        }
        try await ServerHarness.run(configure: { $0.loginAttemptsPerSecond = 0.0001; $0.loginBurst = 2; $0.trustedProxies = ["127.0.0.1"] }) { harness in
            let first = try await attempts(harness, from: "198.51.100.1", 3)
            let second = try await attempts(harness, from: "198.51.100.2", 1)
            #expect(first == [401, 401, 429])
            #expect(second == [401], "another client behind the same proxy has attempts of its own")
        }
        // Not a trusted proxy: the header is the client's own word, and changes nothing.
        try await ServerHarness.run(configure: { $0.loginAttemptsPerSecond = 0.0001; $0.loginBurst = 2 }) { harness in
            let first = try await attempts(harness, from: "198.51.100.1", 2)
            let second = try await attempts(harness, from: "198.51.100.2", 1)
            #expect(first == [401, 401])
            #expect(second == [429])
        }
        #expect(ClientAddressMiddleware.client(forwardedFor: ["10.0.0.5, 10.0.0.1", "10.0.0.2"], behind: ["10.0.0.1", "10.0.0.2"]) == "10.0.0.5")
        #expect(ClientAddressMiddleware.client(forwardedFor: ["10.0.0.1"], behind: ["10.0.0.1"]) == nil)
        #expect(ClientAddressMiddleware.client(forwardedFor: [], behind: ["10.0.0.1"]) == nil)
        #expect(ClientAddressMiddleware.normalized("::FFFF:10.0.0.10") == "10.0.0.10", "a dual-stack socket's IPv4 proxy is the same proxy")
        #expect(ClientAddressMiddleware(trustedProxies: ["10.0.0.10"]).trustedProxies.contains(ClientAddressMiddleware.normalized("::ffff:10.0.0.10")))
        #expect(MonitoringServer.isIPAddress("10.0.0.10") && MonitoringServer.isIPAddress("fe80::1"))
        #expect(!MonitoringServer.isIPAddress("proxy.example") && !MonitoringServer.isIPAddress("10.0.0.0/8"))
    }

    @Test("a live-event stream ends when its token expires")
    func streamEndsWithToken() async throws {
        try await ServerHarness.run(configure: { $0.tokenLifetime = 60 }) { harness in
            let ward = try await Ward.seed(harness)
            let stream = try await EventStream.open(harness, token: try await harness.login("nurse-a"))
            var events = stream.events.makeAsyncIterator()
            _ = try await harness.request(.post, "/api/v1/patients/p-a/observations", token: ward.deviceSecret, json: Observation("heartRate", 70, at: harness.system.now()))
            await harness.system.pipeline.settle()
            #expect(await events.next()?.patient == "p-a")
            harness.clock.advance(by: .seconds(61))
            _ = try await harness.request(.post, "/api/v1/patients/p-a/observations", token: ward.deviceSecret, json: Observation("heartRate", 71, at: harness.system.now()))
            await harness.system.pipeline.settle()
            var late: [String] = []
            while let event = await events.next() {  // what the first post caused, then the end
                if event.name == "samples", String(decoding: event.json, as: UTF8.self).contains("\"value\":71") { late.append(event.name) }
            }
            #expect(late.isEmpty, "the stream closed instead of delivering with an expired token")
        }
    }
}
