/// Step 1 of the BDI cycle: revise the beliefs, removing what is no longer true.
public protocol BeliefRevisionStrategy: Sendable {
    /// Revises `state.beliefs`.
    func reviseBeliefs(_ state: inout MentalState)
}

/// The seed's default: walks the beliefs in order and drops those whose validity
/// has expired (stale perceptions).
public struct DefaultBeliefRevisionStrategy: BeliefRevisionStrategy {
    /// Creates the default belief revision.
    public init() {}

    /// Drops expired beliefs.
    public func reviseBeliefs(_ state: inout MentalState) {
        guard state.beliefs.expiringCount > 0 else { return }
        for belief in state.beliefs.all {
            if let expiry = belief.expiresAt, expiry <= state.now {
                state.beliefs.remove(belief.name)
            }
        }
    }
}
