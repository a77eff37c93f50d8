import Foundation
import HTTPTypes
import Hummingbird

/// Serves the web dashboard: `GET /` (and `/index.html`) is the page, `GET /assets/…`
/// its scripts, styles and icons, `/sw.js` its service worker and `/manifest.webmanifest`
/// what makes it installable; everything else goes on to the API.
///
/// The page is a single-page application that talks to `/api/v1` and `/Api` with the
/// token it got at login, so the files themselves are public. Each answer carries an
/// entity tag (a repeat visit gets 304) and a content-security policy that allows
/// nothing from elsewhere.
struct DashboardMiddleware<Context: RequestContext>: RouterMiddleware {
    /// Where the files come from: the built-in assets, or a folder read at every request.
    let source: @Sendable () -> DashboardAssets

    init(directory: URL?) {
        if let directory {
            source = { DashboardAssets(folder: directory) }
        } else {
            source = { DashboardAssets.builtIn }
        }
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method == .get || request.method == .head, let name = Self.assetName(request.uri.path) else {
            return try await next(request, context)
        }
        guard let asset = source().files[name] else {
            throw HTTPError(.notFound, message: "no dashboard file \(name)")
        }
        var headers: HTTPFields = [
            .contentType: asset.contentType,
            .eTag: asset.etag,
            .cacheControl: "no-cache",
            .init("X-Content-Type-Options")!: "nosniff",
            .init("Referrer-Policy")!: "no-referrer",
            .init("Content-Security-Policy")!: Self.contentSecurityPolicy,
        ]
        if request.headers[.ifNoneMatch] == asset.etag {
            return Response(status: .notModified, headers: headers)
        }
        headers[.contentLength] = String(asset.body.readableBytes)
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: request.method == .head ? ByteBuffer() : asset.body))
    }

    /// Only this server's own scripts, styles and data; no frames.
    static var contentSecurityPolicy: String {
        "default-src 'self'; img-src 'self' data: blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
    }

    /// The file a path names: `index.html` for `/`, the rest of `/assets/…`; `nil` for
    /// any other path, and for one that tries to leave the folder.
    static func assetName(_ path: String) -> String? {
        if path == "/" || path == "/index.html" { return "index.html" }
        // The service worker at the root, so that its scope is the whole app; the manifest beside it.
        if path == "/sw.js" { return "sw.js" }
        if path == "/manifest.webmanifest" { return "manifest.webmanifest" }
        guard path.hasPrefix("/assets/") else { return nil }
        let name = String(path.dropFirst("/assets/".count))
        guard !name.isEmpty, !name.split(separator: "/").contains(where: { $0 == ".." || $0 == "." || $0.isEmpty }) else { return nil }
        return name
    }
}
