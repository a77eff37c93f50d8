extension Duration {
    /// The duration in seconds, fractions included: the one conversion from `Duration`
    /// to a `TimeInterval`-like number used across SADE.
    public var seconds: Double {
        let (whole, attoseconds) = components
        return Double(whole) + Double(attoseconds) * 1e-18
    }
}
