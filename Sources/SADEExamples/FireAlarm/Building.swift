import Synchronization

/// The simulated world of the fire-alarm example: a building where fires break out
/// in rooms and can be put out. Shared by the demo driver and the agents' actions.
public final class Building: Sendable {
    private struct State {
        var burningRoom: String?
        var firesLit = 0
        var firesPutOut = 0
    }

    private let state = Mutex(State())

    /// Creates a building with no fire.
    public init() {}

    /// The room on fire, if any.
    public var fire: String? { state.withLock { $0.burningRoom } }

    /// How many fires broke out so far.
    public var firesLit: Int { state.withLock { $0.firesLit } }

    /// How many fires were put out so far.
    public var firesPutOut: Int { state.withLock { $0.firesPutOut } }

    /// Starts a fire in `room` (replacing none: one fire at a time).
    public func lightFire(in room: String) {
        state.withLock { state in
            guard state.burningRoom == nil else { return }
            state.burningRoom = room
            state.firesLit += 1
        }
    }

    /// Puts out the fire and returns the room it was in, or `nil` if nothing burned.
    public func extinguish() -> String? {
        state.withLock { state in
            guard let room = state.burningRoom else { return nil }
            state.burningRoom = nil
            state.firesPutOut += 1
            return room
        }
    }
}
