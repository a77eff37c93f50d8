import Foundation
@testable import SADEHome
import SADETestTiming
import Testing

@Suite("The thesis's hourly HMM on days small enough to compute by hand", .timeLimit(.minutes(5)), .timed)
struct HourlyHMMTests {
    /// ln of a product, for comparing with the model's log probabilities.
    func ln(_ value: Double) -> Double { Foundation.log(value) }

    @Test("chain building branches where days differ; each 100 % run becomes one state with P_ii = N/(N+1), P_ij = 1/(N+1)")
    func chainBuildingAndMerging() throws {
        // Days 110, 110, 100: a shared first hour (active), then two chains of two hours each.
        let model = HourlyHMM.learn(from: [[true, true, false], [true, true, false], [true, false, false]])
        #expect(model.states.count == 3)
        let first = try #require(model.initial.first { $0.value == 1 }?.key)
        #expect(model.initial == [first: 1])
        #expect(model.states[first].active == 1 && model.states[first].stay == 0 && model.states[first].hours == 1)
        let next = model.states[first].next
        let busy = try #require(next.first { abs($0.value - 2.0 / 3) < 1e-12 }?.key), quiet = try #require(next.first { abs($0.value - 1.0 / 3) < 1e-12 }?.key)
        // The chain 1,0 merged (alternating): b_1 = 1/2, P_ii = 2/3; the chain 0,0 merged (identical): b_1 = 0, P_ii = 2/3.
        #expect(model.states[busy].active == 0.5 && abs(model.states[busy].stay - 2.0 / 3) < 1e-12 && model.states[busy].hours == 2)
        #expect(model.states[quiet].active == 0 && abs(model.states[quiet].stay - 2.0 / 3) < 1e-12 && model.states[quiet].next.isEmpty)
    }

    @Test("forward and Viterbi agree with the hand computation: P(110) = 1 · (2/3 · 1/2) · (2/3 · 1/2) = 1/9")
    func forwardAndViterbi() {
        let model = HourlyHMM.learn(from: [[true, true, false], [true, true, false], [true, false, false]])
        #expect(abs(model.logLikelihood([true, true, false]) - ln(1.0 / 9)) < 1e-12)
        let (path, logProbability) = model.viterbi([true, true, false])
        #expect(path.count == 3 && path[1] == path[2] && path[0] != path[1])
        #expect(abs(logProbability - ln(1.0 / 9)) < 1e-12)
        // 100: through the quiet branch (1/3, then 2/3 to stay) or the busy one (2/3 · 1/2, 2/3 · 1/2).
        #expect(abs(model.logLikelihood([true, false, false]) - ln(1.0 / 3 * 2.0 / 3 + 1.0 / 9)) < 1e-12)
    }

    @Test("where nothing can follow the observation, the step counts 1 % (Bruckner's trick), so the comparison finishes")
    func onePercentStep() {
        // Two active hours, merged: one state, b_1 = 1, P_ii = 2/3. Observing 00 matches nothing.
        let model = HourlyHMM.learn(from: [[true, true], [true, true]])
        #expect(model.states.count == 1)
        let expected = ln(0.01) + ln(2.0 / 3 * 0.01)  // π·1 % then P_ii·1 %, the emissions at 1 % too (no state emits 0)
        #expect(abs(model.logLikelihood([false, false]) - expected) < 1e-12)
        #expect(abs(model.viterbi([false, false]).logProbability - expected) < 1e-12)
        #expect(abs(model.logProbability([false, false], along: [0, 0]) - expected) < 1e-12)
    }

    @Test("the best day is the active day the others fit best; empty days are skipped; the band is its mean ± σ")
    func bestDay() throws {
        // Three days 11 and one 10 (and an empty one, skipped): state 1 (active) branches 3/4 to an active
        // state and 1/4 to an inactive one. Along an 11 day's path the other days score ln(3/4), ln(3/4)
        // and ln(3/4 · 1 %); along the 10 day's path every 11 day scores ln(1/4 · 1 %): an 11 day is best.
        let days: [[Bool]] = [[false, false], [true, true], [true, true], [true, true], [true, false]]
        let thesis = try #require(ThesisDayModel(observations: days))
        #expect(thesis.bestDay == 1)
        let l = ln(0.01)
        #expect(abs(thesis.mean - (ln(3.0 / 4) + l / 3)) < 1e-12)
        #expect(abs(thesis.deviation - abs(l) * 2.0.squareRoot() / 3) < 1e-12)
        #expect(thesis.judge([true, true]).isNormal)
        #expect(abs(thesis.judge([true, false]).score - (ln(3.0 / 4) + l)) < 1e-12)
        #expect(!thesis.judge([true, false]).isNormal, "below the band")
        #expect(!thesis.judge([false, false]).isNormal, "an empty day is below the band too")
        #expect(ThesisDayModel(observations: [[false, false], [true, false]]) == nil, "fewer than two active days teach nothing")
    }
}
