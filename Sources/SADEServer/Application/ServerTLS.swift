import Foundation
import Hummingbird
import NIOSSL

/// The server's TLS: a certificate chain and its private key, in PEM files (a chain
/// file holds the server's certificate first, then the intermediates).
public struct ServerTLS: Sendable {
    /// The PEM file of the certificate chain.
    public var certificateFile: String
    /// The PEM file of the private key.
    public var keyFile: String
    /// How long browsers keep to HTTPS after seeing the server (`Strict-Transport-Security`).
    public var strictTransportSecurity: Duration

    /// TLS with `certificateFile` and `keyFile`, HSTS for a year.
    public init(certificateFile: String, keyFile: String, strictTransportSecurity: Duration = .seconds(365 * 86_400)) {
        self.certificateFile = certificateFile
        self.keyFile = keyFile
        self.strictTransportSecurity = strictTransportSecurity
    }

    /// Why the server's TLS cannot be set up.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The NIO configuration: TLS 1.2 at least, the chain and the key read now.
    ///
    /// - Throws: ``Failure`` naming the file that cannot be read or is not PEM, or a key
    ///   that does not belong to the certificate.
    public func configuration() throws(Failure) -> TLSConfiguration {
        let chain: [NIOSSLCertificate]
        do {
            chain = try NIOSSLCertificate.fromPEMFile(certificateFile)
        } catch {
            throw Failure(description: "cannot read the certificate \(certificateFile): \(error)")
        }
        guard !chain.isEmpty else { throw Failure(description: "\(certificateFile) holds no PEM certificate") }
        let key: NIOSSLPrivateKey
        do {
            key = try NIOSSLPrivateKey(file: keyFile, format: .pem)
        } catch {
            throw Failure(description: "cannot read the private key \(keyFile): \(error)")
        }
        var configuration = TLSConfiguration.makeServerConfiguration(certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
        configuration.minimumTLSVersion = .tlsv12
        do {
            // A key of another certificate would fail every handshake: refuse it at start.
            _ = try NIOSSLContext(configuration: configuration)
        } catch {
            throw Failure(description: "the key \(keyFile) does not fit the certificate \(certificateFile): \(error)")
        }
        return configuration
    }

    /// The `Strict-Transport-Security` value.
    var strictTransportSecurityHeader: String {
        "max-age=\(strictTransportSecurity.components.seconds)"
    }
}

/// The plain-HTTP port of a server that speaks HTTPS: every request is answered `308
/// Permanent Redirect` to the same path and query on the HTTPS port, nothing else.
public struct HTTPSRedirectResponder: HTTPResponder {
    public typealias Context = BasicRequestContext
    /// The HTTPS port, read at each request (it may be known only once the server runs).
    let httpsPort: @Sendable () -> Int

    /// Redirects to the HTTPS port `httpsPort()` returns.
    public init(httpsPort: @escaping @Sendable () -> Int) { self.httpsPort = httpsPort }

    public func respond(to request: Request, context: Context) async throws -> Response {
        let authority = request.head.authority ?? "localhost"
        let host = Self.host(of: authority)
        let port = httpsPort()
        let location = "https://\(host)\(port == 443 ? "" : ":\(port)")\(request.uri.path.isEmpty ? "/" : request.uri.description)"
        return Response(status: .permanentRedirect, headers: [.location: location, .contentLength: "0"])
    }

    /// The host part of an `authority` (`host`, `host:port`, `[v6]:port`); a name that is
    /// not a plain host name or address becomes `localhost`, so that no header can
    /// redirect elsewhere than to a host.
    static func host(of authority: String) -> String {
        var host = Substring(authority)
        if host.hasPrefix("["), let end = host.firstIndex(of: "]") {
            host = host[...end]
        } else if let colon = host.lastIndex(of: ":") {
            host = host[..<colon]
        }
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-[]:")
        guard !host.isEmpty, host.count <= 253, host.allSatisfy(allowed.contains) else { return "localhost" }
        return String(host)
    }
}
