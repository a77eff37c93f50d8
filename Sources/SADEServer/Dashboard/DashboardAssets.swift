import Crypto
import Foundation
import Hummingbird

/// The web dashboard's files — hand-written HTML, CSS and JavaScript in `Assets/`
/// beside this file, shipped as a resource of the module — held in memory.
struct DashboardAssets: Sendable {
    /// One file ready to serve.
    struct Asset: Sendable {
        let body: ByteBuffer
        let contentType: String
        /// A strong entity tag: the first bytes of the content's SHA-256.
        let etag: String
    }

    /// Files by their path below `Assets/`, e.g. `index.html`, `js/app.js`.
    let files: [String: Asset]

    /// The assets built into the module; empty when the resource is missing.
    static let builtIn: DashboardAssets = {
        guard let folder = Bundle.module.url(forResource: "Assets", withExtension: nil) else { return DashboardAssets(files: [:]) }
        return DashboardAssets(folder: folder)
    }()

    /// Reads every file under `folder` (hidden files skipped).
    init(folder: URL) {
        var files: [String: Asset] = [:]
        let root = folder.standardizedFileURL.path
        let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
        while let url = walker?.nextObject() as? URL {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true,
                let data = try? Data(contentsOf: url)
            else { continue }
            let relative = String(url.standardizedFileURL.path.dropFirst(root.count)).trimmingCharacters(in: CharacterSet(charactersIn: "/"))
            files[relative] = Asset(data: data, contentType: Self.contentType(ofExtension: url.pathExtension))
        }
        self.files = files
    }

    init(files: [String: Asset]) { self.files = files }

    /// The media type served for a file extension.
    static func contentType(ofExtension pathExtension: String) -> String {
        switch pathExtension.lowercased() {
        case "html": "text/html; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "ico": "image/x-icon"
        case "json": "application/json; charset=utf-8"
        case "webmanifest": "application/manifest+json; charset=utf-8"
        default: "application/octet-stream"
        }
    }
}

extension DashboardAssets.Asset {
    init(data: Data, contentType: String) {
        body = ByteBuffer(bytes: data)
        self.contentType = contentType
        etag = "\"" + SHA256.hash(data: data).prefix(12).map { String(format: "%02x", $0) }.joined() + "\""
    }
}
