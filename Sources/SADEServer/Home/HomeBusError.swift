import SADEHome

/// An error result on the bus: Home Assistant's `{"code", "message"}`.
struct HomeBusError: Error {
    let code: String
    let message: String

    static func invalidFormat(_ message: String) -> HomeBusError { HomeBusError(code: "invalid_format", message: message) }
    static func notFound(_ message: String) -> HomeBusError { HomeBusError(code: "not_found", message: message) }
    static func unauthorized(_ message: String) -> HomeBusError { HomeBusError(code: "unauthorized", message: message) }

    /// The bus's word for a store or actuator error.
    init(_ error: any Error) {
        switch error {
        case let error as HomeBusError: self = error
        case let error as HomeError:
            switch error {
            case .unknownFlat, .unknownDevice, .unknownRoom, .unknownMessage: self.init(code: "not_found", message: error.description)
            case .invalidValue: self.init(code: "invalid_format", message: error.description)
            case .storage: self.init(code: "home_error", message: error.description)
            case .unavailable: self.init(code: "unavailable", message: error.description)
            }
        case let error as ActuatorError:
            switch error {
            case .timedOut: self.init(code: "timeout", message: error.description)
            case .notAnActuator: self.init(code: "invalid_format", message: error.description)
            }
        default: self.init(code: "home_error", message: "\(error)")
        }
    }

    init(code: String, message: String) {
        self.code = code
        self.message = message
    }
}
