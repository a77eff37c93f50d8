import ArgumentParser
import Crypto
import Foundation
import Logging
import SADEPostgres
import SADEMonitoring
import SADENotification

/// `sade serve`'s Web Push options: the VAPID key, the contact push services are
/// given, and which push services it may reach.
struct PushOptions: ParsableArguments {
    @Option(help: "Who runs this server, for push services to contact (mailto: or https:).")
    var pushContact = "mailto:admin@localhost"

    @Option(help: """
        The VAPID key (PEM) that signs pushes (default: vapid-key.pem in the data directory, made on first start; with \
        --database, one key kept in the database for every node).
        """)
    var pushKeyFile: String?

    @Option(help: "A PEM file of certificate authorities trusted besides the system's, for a private push service.")
    var pushCAFile: String?

    @Flag(help: "Allow push endpoints on loopback, private and link-local addresses (a push service inside the network; tests).")
    var pushAllowPrivateEndpoints = false

    /// The push configuration for a server on `dataDirectory`; the key is made there if
    /// missing — or, for nodes sharing the database of `shared`, kept there for all.
    func configuration(dataDirectory: String, shared: PostgresPool?) async throws -> PushConfiguration {
        let key: VAPIDKey
        do {
            if pushKeyFile == nil, let shared {
                let pem = try await ServeCommand.sharedSecret("vapid", fresh: VAPIDKey(contact: pushContact).privateKey.pemRepresentation, shared)
                key = VAPIDKey(privateKey: try P256.Signing.PrivateKey(pemRepresentation: pem), contact: pushContact)
            } else if let pushKeyFile {
                key = try VAPIDKey.inFile(pushKeyFile, contact: pushContact)
            } else {
                try FileManager.default.createDirectory(atPath: dataDirectory, withIntermediateDirectories: true)
                key = try VAPIDKey.inDirectory(dataDirectory, contact: pushContact)
            }
        } catch { throw ValidationError("\(error)") }
        if pushContact.hasSuffix("@localhost") {
            Logger(label: "sade.push").warning(
                "Apple's push service refuses a localhost contact: give --push-contact a real mailto: or https: URL",
                metadata: ["contact": "\(pushContact)"])
        }
        return PushConfiguration(key: key, policy: EndpointPolicy(allowsPrivateAddresses: pushAllowPrivateEndpoints), trustedCAFile: pushCAFile)
    }

    func validate() throws {
        guard pushContact.hasPrefix("mailto:") || pushContact.hasPrefix("https:") else {
            throw ValidationError("--push-contact must be a mailto: or https: URL")
        }
        if let pushCAFile, !FileManager.default.isReadableFile(atPath: pushCAFile) {
            throw ValidationError("--push-ca-file \(pushCAFile) cannot be read")
        }
    }
}
