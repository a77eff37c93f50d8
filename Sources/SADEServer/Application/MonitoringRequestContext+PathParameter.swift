import Foundation
import Hummingbird

extension MonitoringRequestContext {
    /// The path parameter `name`, percent-decoded: the router hands parameters over as
    /// they came in the URI, so `/patients/p%201` would otherwise look for `p%201`.
    /// A 400 when the parameter is missing or is not valid percent-encoded UTF-8.
    public func pathParameter(_ name: String) throws -> String {
        try Self.percentDecoded(try parameters.require(name), parameter: name)
    }

    /// `raw` with its percent-escapes decoded, or a 400 naming `parameter` when they do
    /// not spell UTF-8 text.
    static func percentDecoded(_ raw: String, parameter: String) throws -> String {
        guard let decoded = raw.removingPercentEncoding else {
            throw APIError.invalid("\(parameter): '\(raw)' is not valid percent-encoded UTF-8", code: "invalid-parameter")
        }
        return decoded
    }
}
