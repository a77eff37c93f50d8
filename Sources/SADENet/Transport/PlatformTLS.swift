import NIOCore
import NIOSSL

/// Mutual TLS between platforms: each platform holds a certificate whose subject's
/// common name is its platform name, signed by a certificate authority every platform
/// of the deployment trusts. A connection from a peer without such a certificate fails
/// its handshake; a message whose `sender` names another platform than the one the
/// connection authenticated is rejected back to it.
public struct PlatformTLS: Sendable {
    /// The PEM file of this platform's certificate (then its chain).
    public var certificateFile: String
    /// The PEM file of its private key.
    public var keyFile: String
    /// The PEM file of the authority (or authorities) whose platforms are trusted.
    public var certificateAuthorityFile: String

    /// TLS with this platform's certificate and key, trusting `certificateAuthorityFile`.
    public init(certificateFile: String, keyFile: String, certificateAuthorityFile: String) {
        self.certificateFile = certificateFile
        self.keyFile = keyFile
        self.certificateAuthorityFile = certificateAuthorityFile
    }

    /// Why the platform's TLS cannot be set up.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The contexts a transport accepts and makes connections with; both require the
    /// peer's certificate, signed by the authority (the host name is not checked: a
    /// platform is known by the name in its certificate, not by its address).
    func contexts() throws(Failure) -> (server: NIOSSLContext, client: NIOSSLContext) {
        let chain: [NIOSSLCertificate], key: NIOSSLPrivateKey, authorities: [NIOSSLCertificate]
        do {
            chain = try NIOSSLCertificate.fromPEMFile(certificateFile)
        } catch {
            throw Failure(description: "cannot read the certificate \(certificateFile): \(error)")
        }
        do {
            key = try NIOSSLPrivateKey(file: keyFile, format: .pem)
        } catch {
            throw Failure(description: "cannot read the private key \(keyFile): \(error)")
        }
        do {
            authorities = try NIOSSLCertificate.fromPEMFile(certificateAuthorityFile)
        } catch {
            throw Failure(description: "cannot read the certificate authority \(certificateAuthorityFile): \(error)")
        }
        guard !chain.isEmpty, !authorities.isEmpty else { throw Failure(description: "a PEM file holds no certificate") }
        var server = TLSConfiguration.makeServerConfiguration(certificateChain: chain.map { .certificate($0) }, privateKey: .privateKey(key))
        var client = TLSConfiguration.makeClientConfiguration()
        client.certificateChain = chain.map { .certificate($0) }
        client.privateKey = .privateKey(key)
        Self.requirePeers(of: authorities, in: &server)
        Self.requirePeers(of: authorities, in: &client)
        do {
            return (try NIOSSLContext(configuration: server), try NIOSSLContext(configuration: client))
        } catch {
            throw Failure(description: "the key \(keyFile) does not fit the certificate \(certificateFile): \(error)")
        }
    }

    /// TLS 1.2 or later; the peer's certificate required and signed by one of `authorities`.
    private static func requirePeers(of authorities: [NIOSSLCertificate], in configuration: inout TLSConfiguration) {
        configuration.minimumTLSVersion = .tlsv12
        configuration.trustRoots = .certificates(authorities)
        configuration.certificateVerification = .noHostnameVerification
    }

    /// The platform the first certificate in a PEM file stands for.
    public static func platformName(inCertificateFile file: String) throws -> String? {
        try NIOSSLCertificate.fromPEMFile(file).first.flatMap(platformName(of:))
    }

    /// The platform a certificate stands for: its subject's common name.
    static func platformName(of certificate: NIOSSLCertificate) -> String? {
        certificate.subjectName.first { $0.type == .commonName }?.value
    }
}
