import Foundation
import SADENet
import SADEProcess

/// Throw-away certificates for the benchmarks' mutual TLS, made with the `openssl`
/// command: a CA, and a certificate per platform name it signed.
struct BenchCertificates {
    let directory: URL

    /// Makes the CA in a temporary folder; `nil` when `openssl` cannot be run.
    static func make() async -> BenchCertificates? {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sade-bench-tls-\(UUID().uuidString)")
        guard (try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)) != nil else { return nil }
        let certificates = BenchCertificates(directory: directory)
        let made = await certificates.openssl([
            "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", "ca-key.pem", "-out", "ca.pem",
            "-days", "1", "-subj", "/CN=SADE bench CA",
        ])
        return made ? certificates : nil
    }

    /// The TLS of platform `name` (a certificate with that common name, signed by the CA).
    func tls(for name: String) async -> PlatformTLS? {
        guard
            await openssl([
                "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", "\(name)-key.pem", "-out", "\(name).csr",
                "-subj", "/CN=\(name)",
            ]),
            await openssl(["x509", "-req", "-in", "\(name).csr", "-CA", "ca.pem", "-CAkey", "ca-key.pem", "-CAcreateserial", "-out", "\(name).pem", "-days", "1"])
        else { return nil }
        return PlatformTLS(certificateFile: path("\(name).pem"), keyFile: path("\(name)-key.pem"), certificateAuthorityFile: path("ca.pem"))
    }

    /// A server certificate for `host` (also valid for 127.0.0.1) signed by the CA: its and its key's file.
    func server(for host: String) async -> (certificate: String, key: String)? {
        guard
            await openssl([
                "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout", "\(host)-key.pem", "-out", "\(host).csr",
                "-subj", "/CN=\(host)",
            ]),
            (try? Data("subjectAltName=DNS:\(host),IP:127.0.0.1\n".utf8).write(to: directory.appendingPathComponent("\(host).ext"))) != nil,
            await openssl([
                "x509", "-req", "-in", "\(host).csr", "-CA", "ca.pem", "-CAkey", "ca-key.pem", "-CAcreateserial", "-out", "\(host).pem", "-days", "1",
                "-extfile", "\(host).ext",
            ])
        else { return nil }
        return (path("\(host).pem"), path("\(host)-key.pem"))
    }

    /// The CA's certificate (what clients trust).
    var authority: String { path("ca.pem") }

    /// The command-line options of `sade platform` for platform `name`.
    func arguments(for tls: PlatformTLS) -> [String] {
        ["--tls-cert", tls.certificateFile, "--tls-key", tls.keyFile, "--tls-ca", tls.certificateAuthorityFile]
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }

    private func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    private func openssl(_ arguments: [String]) async -> Bool {
        guard let openssl = try? ChildProcess(URL(fileURLWithPath: "/usr/bin/env"), ["openssl"] + arguments, directory: directory, errors: .discarded)
        else { return false }
        return await openssl.finish().status == 0
    }
}
