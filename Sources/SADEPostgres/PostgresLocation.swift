import Foundation
import NIOSSL
import PostgresNIO

/// Where a PostgreSQL database is, read from a URL in libpq's form:
/// `postgres://user:password@host:port/database` (or `postgresql://`), with
/// `?host=/run/postgresql` for a Unix socket folder and `?sslmode=disable|prefer|require`.
///
/// ```swift
/// let location = try PostgresLocation(url: "postgres://sade@db.example:5432/sade?sslmode=require")
/// ```
public struct PostgresLocation: Sendable, Hashable, CustomStringConvertible {
    /// How the connection is encrypted, as libpq's `sslmode`: `prefer` and `require`
    /// encrypt without checking the server's certificate (a stock server's is
    /// self-signed); `verify-full` checks it and the host name against the system's
    /// trusted authorities.
    public enum TLSMode: String, Sendable, Hashable {
        case disable, prefer, require
        case verifyFull = "verify-full"
    }

    /// The server's host name or address, when it is reached over TCP.
    public var host: String?
    /// The server's port.
    public var port: Int
    /// The folder of the server's Unix socket, when it is reached through one.
    public var socketFolder: String?
    /// The role to log in as.
    public var user: String
    /// Its password, if the server asks for one.
    public var password: String?
    /// The database's name.
    public var database: String
    /// Encryption.
    public var tls: TLSMode

    /// Reads a `postgres://` URL.
    ///
    /// - Throws: ``PostgresLocationError`` naming what is wrong with it.
    public init(url: String) throws(PostgresLocationError) {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased() else {
            throw .malformed("not a URL: \(Self.redacted(url))")
        }
        guard scheme == "postgres" || scheme == "postgresql" else {
            throw .malformed("the scheme is \(scheme)://, not postgres:// or postgresql://")
        }
        let query = Dictionary((components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { _, last in last })
        // An IPv6 address comes in brackets ([::1]), which a resolver does not take.
        let host = components.host.flatMap { $0.isEmpty ? nil : $0 }.map { $0.hasPrefix("[") && $0.hasSuffix("]") ? String($0.dropFirst().dropLast()) : $0 }
        socketFolder = query["host"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        self.host = socketFolder == nil ? (host ?? query["host"] ?? "localhost") : nil
        port = components.port ?? query["port"].flatMap(Int.init) ?? 5432
        guard (1...65535).contains(port) else { throw .malformed("port \(port) is not between 1 and 65535") }
        // `URLComponents` decodes user, password and path once already.
        user = components.user ?? query["user"] ?? "postgres"
        password = components.password ?? query["password"]
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        database = path.isEmpty ? user : path
        guard let tls = TLSMode(rawValue: query["sslmode"] ?? "prefer") else {
            throw .malformed("sslmode \(query["sslmode"] ?? "") is not disable, prefer, require or verify-full")
        }
        self.tls = tls
    }

    /// The URL without its password, for logs and messages.
    public var description: String {
        let server = socketFolder.map { "?host=\($0)" } ?? ""
        let address = socketFolder == nil ? "\(host ?? "localhost"):\(port)" : ""
        return "postgres://\(user)@\(address)/\(database)\(server)"
    }

    /// PostgresNIO's configuration for this location.
    var configuration: PostgresClient.Configuration {
        var configuration: PostgresClient.Configuration
        if let socketFolder {
            let socket = URL(fileURLWithPath: socketFolder).appendingPathComponent(".s.PGSQL.\(port)").path
            configuration = PostgresClient.Configuration(unixSocketPath: socket, username: user, password: password, database: database)
        } else {
            let tls: PostgresClient.Configuration.TLS =
                switch self.tls {
                case .disable: .disable
                case .prefer: .prefer(Self.unverified)
                case .require: .require(Self.unverified)
                case .verifyFull: .require(.makeClientConfiguration())
                }
            configuration = PostgresClient.Configuration(
                host: host ?? "localhost", port: port, username: user, password: password, database: database, tls: tls)
        }
        return configuration
    }

    /// Encryption without a check of the server's certificate.
    private static var unverified: TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.certificateVerification = .none
        return configuration
    }

    /// `url` with any password replaced, so that an error message can quote it.
    private static func redacted(_ url: String) -> String {
        guard let at = url.lastIndex(of: "@"), let scheme = url.range(of: "://"), scheme.upperBound < at else { return url }
        let credentials = url[scheme.upperBound..<at]
        guard let colon = credentials.firstIndex(of: ":") else { return url }
        return url.replacingCharacters(in: url.index(after: colon)..<at, with: "***")
    }
}

/// A database URL that cannot be used.
public enum PostgresLocationError: Error, Hashable, CustomStringConvertible {
    /// What is wrong, in words.
    case malformed(String)

    public var description: String {
        switch self {
        case .malformed(let reason): "invalid database URL: \(reason)"
        }
    }
}
