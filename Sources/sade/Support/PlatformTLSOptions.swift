import ArgumentParser
import Foundation
import NIOSSL
import SADENet

/// `--tls-cert`, `--tls-key`, `--tls-ca`: mutual TLS between platforms (all three, or
/// none). The certificate's common name is the platform's name.
struct PlatformTLSOptions: ParsableArguments {
    @Option(name: .customLong("tls-cert"), help: "This platform's certificate (PEM), its common name the platform's name: mutual TLS with the other platforms.")
    var certificate: String?

    @Option(name: .customLong("tls-key"), help: "The certificate's private key (PEM).")
    var key: String?

    @Option(name: .customLong("tls-ca"), help: "The certificate authority (PEM) whose platforms are trusted.")
    var certificateAuthority: String?

    func validate() throws {
        let given = [certificate, key, certificateAuthority].filter { $0 != nil }.count
        guard given == 0 || given == 3 else { throw ValidationError("--tls-cert, --tls-key and --tls-ca go together") }
    }

    /// The transport's TLS, if asked for.
    var tls: PlatformTLS? {
        guard let certificate, let key, let certificateAuthority else { return nil }
        return PlatformTLS(certificateFile: certificate, keyFile: key, certificateAuthorityFile: certificateAuthority)
    }

    /// The platform name the certificate gives, if TLS is asked for.
    func platformName() throws -> String? {
        guard let certificate else { return nil }
        do {
            guard let name = try PlatformTLS.platformName(inCertificateFile: certificate) else {
                throw ValidationError("--tls-cert \(certificate) names no platform (no common name)")
            }
            return name
        } catch let error as ValidationError {
            throw error
        } catch {
            throw ValidationError("cannot read --tls-cert \(certificate): \(error)")
        }
    }
}
