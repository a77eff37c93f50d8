import Foundation

/// The thesis's hidden Markov model of a day (§5.3–5.4): states that emit "active" or
/// "inactive" for an hour, learned from days by chain building and state merging.
///
/// Observations are the 24 hourly bins of a day (``ActivityDay/activeHours(threshold:)``).
/// Where the model cannot follow an observation (every path has probability 0), the step
/// is taken again with every transition probability at least 1 % — Bruckner et al.'s
/// trick that §5.5 describes — so that a comparison always finishes.
public struct HourlyHMM: Hashable, Sendable {
    /// One hidden state.
    public struct State: Hashable, Sendable {
        /// P(active | this state), the emission probability b_i1.
        public var active: Double
        /// P(stay in this state), 0 for a state that was not merged.
        public var stay: Double
        /// P(next state), by state index; with ``stay`` they sum to 1 (or less at the
        /// end of the day, where a path leaves the model).
        public var next: [Int: Double]
        /// How many hours of the chains it stands for (N_merged).
        public var hours: Int

        /// A state.
        public init(active: Double, stay: Double, next: [Int: Double], hours: Int) {
            self.active = active
            self.stay = stay
            self.next = next
            self.hours = hours
        }

        /// b_i(o).
        func emission(_ observation: Bool) -> Double { observation ? active : 1 - active }
    }

    /// The initial distribution π, by state index.
    public var initial: [Int: Double]
    /// The states.
    public var states: [State]

    /// The 1 % that a step falls back to where the model cannot follow the observation.
    public static let floor = 0.01

    /// A model.
    public init(initial: [Int: Double], states: [State]) {
        self.initial = initial
        self.states = states
    }

    /// P(j → i), the transition probability.
    func transition(_ from: Int, _ to: Int) -> Double { from == to ? states[from].stay : states[from].next[to] ?? 0 }

    /// ln P(O | λ) by the forward algorithm (α-pass), scaled at each step.
    public func logLikelihood(_ observations: [Bool]) -> Double {
        guard !states.isEmpty, let first = observations.first else { return observations.isEmpty ? 0 : -.infinity }
        var alpha = Array(repeating: 0.0, count: states.count)
        for (state, p) in initial { alpha[state] = p * states[state].emission(first) }
        for emissionsToo in [false, true] where alpha.allSatisfy({ $0 == 0 }) {
            for state in states.indices {
                let emission = states[state].emission(first)
                alpha[state] = max(initial[state] ?? 0, Self.floor) * (emissionsToo ? floored(emission) : emission)
            }
        }
        var logLikelihood = 0.0
        for observation in observations.dropFirst() {
            let sum = alpha.reduce(0, +)
            logLikelihood += Foundation.log(sum)
            alpha = alpha.map { $0 / sum }
            var next = Array(repeating: 0.0, count: states.count)
            for (from, weight) in alpha.enumerated() where weight > 0 {
                let state = states[from]
                if state.stay > 0 { next[from] += weight * state.stay }
                for (to, p) in state.next { next[to] += weight * p }
            }
            for state in states.indices { next[state] *= states[state].emission(observation) }
            // The 1 % step: transitions first; emissions too if no state emits the observation.
            for emissionsToo in [false, true] where next.allSatisfy({ $0 == 0 }) {
                for to in states.indices {
                    var sum = 0.0
                    for (from, weight) in alpha.enumerated() where weight > 0 { sum += weight * max(transition(from, to), Self.floor) }
                    let emission = states[to].emission(observation)
                    next[to] = sum * (emissionsToo ? floored(emission) : emission)
                }
            }
            alpha = next
        }
        return logLikelihood + Foundation.log(alpha.reduce(0, +))
    }

    /// The most likely state sequence for `observations` (Viterbi) and ln P(O, Q | λ) along it.
    public func viterbi(_ observations: [Bool]) -> (path: [Int], logProbability: Double) {
        guard !states.isEmpty, let first = observations.first else { return ([], observations.isEmpty ? 0 : -.infinity) }
        var delta = states.indices.map { ln(initial[$0] ?? 0) + ln(states[$0].emission(first)) }
        for emissionsToo in [false, true] where delta.allSatisfy({ $0 == -.infinity }) {
            delta = states.indices.map {
                let emission = states[$0].emission(first)
                return ln(max(initial[$0] ?? 0, Self.floor)) + ln(emissionsToo ? floored(emission) : emission)
            }
        }
        var back: [[Int]] = []
        for observation in observations.dropFirst() {
            var (next, from) = step(delta, observation, floorTransitions: false, floorEmissions: false)
            for emissionsToo in [false, true] where next.allSatisfy({ $0 == -.infinity }) {  // the 1 % step
                (next, from) = step(delta, observation, floorTransitions: true, floorEmissions: emissionsToo)
            }
            delta = next
            back.append(from)
        }
        var state = delta.indices.max { delta[$0] < delta[$1] } ?? 0
        let best = delta[state]
        var path = [state]
        for from in back.reversed() {
            state = from[state]
            path.append(state)
        }
        return (path.reversed(), best)
    }

    private func step(_ delta: [Double], _ observation: Bool, floorTransitions: Bool, floorEmissions: Bool) -> ([Double], [Int]) {
        var next = Array(repeating: -Double.infinity, count: states.count), from = Array(repeating: 0, count: states.count)
        for to in states.indices {
            let emission = ln(floorEmissions ? floored(states[to].emission(observation)) : states[to].emission(observation))
            guard emission > -.infinity else { continue }
            for (previous, score) in delta.enumerated() where score > -.infinity {
                let p = floorTransitions ? max(transition(previous, to), Self.floor) : transition(previous, to)
                guard p > 0 else { continue }
                let candidate = score + ln(p) + emission
                if candidate > next[to] { (next[to], from[to]) = (candidate, previous) }
            }
        }
        return (next, from)
    }

    /// ln P(O, Q | λ) for a given state sequence `path`: how well `observations` fit a
    /// day that went as `path` did; transitions and emissions the path cannot make count 1 %.
    public func logProbability(_ observations: [Bool], along path: [Int]) -> Double {
        guard !path.isEmpty, path.count == observations.count else { return -.infinity }
        var total = ln(max(initial[path[0]] ?? 0, Self.floor))
        for (t, state) in path.enumerated() {
            if t > 0 { total += ln(max(transition(path[t - 1], state), Self.floor)) }
            total += ln(floored(states[state].emission(observations[t])))
        }
        return total
    }

    private func floored(_ p: Double) -> Double { max(p, Self.floor) }
    private func ln(_ p: Double) -> Double { p > 0 ? Foundation.log(p) : -.infinity }
}
