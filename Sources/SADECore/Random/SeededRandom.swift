/// A small seeded generator (SplitMix64): the same seed gives the same numbers on every
/// machine, so a simulated day can be made again exactly.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator from `seed`.
    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `range`.
    public mutating func uniform(_ range: ClosedRange<Double>) -> Double { Double.random(in: range, using: &self) }

    /// Whether an event of probability `p` happens.
    public mutating func chance(_ p: Double) -> Bool { uniform(0...1) < p }
}
