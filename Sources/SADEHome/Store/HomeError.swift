/// What can go wrong with homes, in words a user can act on.
public enum HomeError: Error, Hashable, Sendable, CustomStringConvertible {
    /// No flat with this id.
    case unknownFlat(FlatID)
    /// No device with this id (in the flat, where one is named).
    case unknownDevice(DeviceID)
    /// No room with this id in the flat.
    case unknownRoom(RoomID)
    /// No message with this id.
    case unknownMessage(Int64)
    /// A field is out of range or malformed; `field` names it (e.g. `events[3].time`).
    case invalidValue(field: String, reason: String)
    /// The store failed (disk full, file unreadable, …).
    case storage(String)
    /// The shared database cannot be reached just now; nothing was written, try again shortly.
    case unavailable(String)

    public var description: String {
        switch self {
        case .unknownFlat(let id): "no flat with id \(id)"
        case .unknownDevice(let id): "no device with id \(id)"
        case .unknownRoom(let id): "no room with id \(id)"
        case .unknownMessage(let id): "no home message with id \(id)"
        case .invalidValue(let field, let reason): "\(field): \(reason)"
        case .storage(let reason): "home store: \(reason)"
        case .unavailable(let reason): "home store unavailable: \(reason)"
        }
    }
}
