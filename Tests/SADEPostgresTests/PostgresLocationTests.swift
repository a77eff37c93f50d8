import SADEPostgres
import SADETestSupport
import SADETestTiming
import Testing

@Suite("PostgreSQL: database URLs", .timeLimit(.minutes(5)), .timed)
struct PostgresLocationTests {
    @Test("a full URL gives host, port, user, password, database and TLS; the description hides the password")
    func fullURL() throws {
        let location = try PostgresLocation(url: "postgres://sade:s%40cret@db.example:6543/health?sslmode=require")
        #expect(location.host == "db.example")
        #expect(location.port == 6543)
        #expect(location.user == "sade")
        #expect(location.password == "s@cret")
        #expect(location.database == "health")
        #expect(location.tls == .require)
        #expect(location.socketFolder == nil)
        #expect(location.description == "postgres://sade@db.example:6543/health")
        #expect(!location.description.contains("cret"))
    }

    @Test("percent-encoded parts are decoded once; an IPv6 host loses its brackets; verify-full is understood")
    func encodingAndIPv6() throws {
        let location = try PostgresLocation(url: "postgres://care%20team:50%25off@[::1]:5433/sade%2Dhealth?sslmode=verify-full")
        #expect(location.user == "care team")
        #expect(location.password == "50%off")
        #expect(location.host == "::1")
        #expect(location.port == 5433)
        #expect(location.database == "sade-health")
        #expect(location.tls == .verifyFull)
    }

    @Test("libpq's defaults: port 5432, user postgres, the database named after the user, TLS preferred")
    func defaults() throws {
        let location = try PostgresLocation(url: "postgresql://localhost")
        #expect(location.port == 5432)
        #expect(location.user == "postgres")
        #expect(location.database == "postgres")
        #expect(location.tls == .prefer)
    }

    @Test("?host=/folder reaches the server through its Unix socket")
    func unixSocket() throws {
        let location = try PostgresLocation(url: "postgres://sade@/sade?host=/run/postgresql")
        #expect(location.socketFolder == "/run/postgresql")
        #expect(location.host == nil)
        #expect(location.database == "sade")
    }

    @Test("another scheme, a bad port or sslmode is a clear error that never shows the password", arguments: [
        ("mysql://root:hunter2@db/sade", "scheme"),
        ("postgres://u:hunter2@db:99999/sade", "port"),
        ("postgres://u:hunter2@db/sade?sslmode=always", "sslmode"),
        ("not a url at all", "not a URL"),
    ])
    func malformed(url: String, complaint: String) {
        #expect {
            _ = try PostgresLocation(url: url)
        } throws: { error in
            let text = "\(error)"
            return text.contains(complaint) && !text.contains("hunter2") && text.hasPrefix("invalid database URL")
        }
    }
}
