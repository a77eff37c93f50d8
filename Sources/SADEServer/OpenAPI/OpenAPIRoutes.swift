import Foundation
import Hummingbird

/// The OpenAPI 3 document of the server's HTTP API: `openapi.json` beside this file,
/// shipped as a resource of the module and read once.
enum OpenAPIDocument {
    /// The document's bytes; `nil` only when the resource is missing from the build.
    static let bytes: ByteBuffer? = Bundle.module.url(forResource: "openapi", withExtension: "json")
        .flatMap { try? Data(contentsOf: $0) }
        .map { ByteBuffer(bytes: $0) }
}

extension MonitoringServer {
    /// `GET /openapi.json`: the OpenAPI document describing every route of ``makeRouter()``
    /// (a test keeps the two equal).
    func addOpenAPIRoutes(to router: Router<MonitoringRequestContext>) {
        router.get("openapi.json") { _, _ -> Response in
            guard let document = OpenAPIDocument.bytes else {
                throw APIError(.internalServerError, code: "internal", message: "the OpenAPI document is missing from this build")
            }
            return Response(
                status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: ResponseBody(byteBuffer: document))
        }
    }
}
