import ArgumentParser
import Foundation
import SADEMonitoring
import SADENotification

/// `sade serve`'s Web Push options: the VAPID key, the contact push services are
/// given, and which push services it may reach.
struct PushOptions: ParsableArguments {
    @Option(help: "Who runs this server, for push services to contact (mailto: or https:).")
    var pushContact = "mailto:admin@localhost"

    @Option(help: """
        The VAPID key (PEM) that signs pushes (default: vapid-key.pem in the data directory, made on first start). \
        Nodes sharing a database must share one key: give each the same file.
        """)
    var pushKeyFile: String?

    @Option(help: "A PEM file of certificate authorities trusted besides the system's, for a private push service.")
    var pushCAFile: String?

    @Flag(help: "Allow push endpoints on loopback, private and link-local addresses (a push service inside the network; tests).")
    var pushAllowPrivateEndpoints = false

    /// The push configuration for a server on `dataDirectory`; the key is made there if missing.
    func configuration(dataDirectory: String) throws -> PushConfiguration {
        let key: VAPIDKey
        do {
            if let pushKeyFile {
                key = FileManager.default.fileExists(atPath: pushKeyFile)
                    ? try VAPIDKey.read(from: pushKeyFile, contact: pushContact) : try VAPIDKey.create(at: pushKeyFile, contact: pushContact)
            } else {
                try FileManager.default.createDirectory(atPath: dataDirectory, withIntermediateDirectories: true)
                key = try VAPIDKey.inDirectory(dataDirectory, contact: pushContact)
            }
        } catch { throw ValidationError("\(error)") }
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
