import SADEHealth
import SADETestTiming
import Testing

/// Every boundary of the RCP 2017 NEWS2 chart, on both sides, scored through
/// ``NEWS2Score`` with only that parameter recorded.
@Suite("NEWS2 chart boundaries", .timeLimit(.minutes(5)), .timed)
struct NEWS2ChartTests {
    /// The sub-score and total of observations holding a single parameter.
    private func only(_ observations: NEWS2Observations, _ parameter: NEWS2Parameter) throws -> Int? {
        let score = try NEWS2Score(observations)
        #expect(score.total == (score.subscore(parameter) ?? 0), "the total is the only sub-score")
        #expect(score.subscores.count == 1)
        return score.subscore(parameter)
    }

    @Test("respiration rate: ≤8 → 3, 9–11 → 1, 12–20 → 0, 21–24 → 2, ≥25 → 3", arguments: [
        (0.0, 3), (8, 3), (9, 1), (11, 1), (12, 0), (20, 0), (21, 2), (24, 2), (25, 3), (60, 3),
    ])
    func respirationRate(rate: Double, expected: Int) throws {
        #expect(try only(NEWS2Observations(respirationRate: rate), .respirationRate) == expected)
    }

    @Test("SpO2 scale 1, on air and on oxygen alike: ≤91 → 3, 92–93 → 2, 94–95 → 1, ≥96 → 0", arguments: [
        (70.0, 3), (91, 3), (92, 2), (93, 2), (94, 1), (95, 1), (96, 0), (100, 0),
    ])
    func spO2Scale1(saturation: Double, expected: Int) throws {
        for oxygen in [false, true] {
            let score = try NEWS2Score(NEWS2Observations(oxygenSaturation: saturation, spO2Scale: .scale1, onSupplementalOxygen: oxygen))
            #expect(score.subscore(.oxygenSaturation) == expected, "on \(oxygen ? "oxygen" : "air")")
            #expect(score.total == expected + (oxygen ? 2 : 0))
        }
    }

    @Test("SpO2 scale 2 on air: ≤83 → 3, 84–85 → 2, 86–87 → 1, 88–92 → 0, ≥93 on air → 0", arguments: [
        (70.0, 3), (83, 3), (84, 2), (85, 2), (86, 1), (87, 1), (88, 0), (92, 0), (93, 0), (97, 0), (100, 0),
    ])
    func spO2Scale2OnAir(saturation: Double, expected: Int) throws {
        let score = try NEWS2Score(NEWS2Observations(oxygenSaturation: saturation, spO2Scale: .scale2, onSupplementalOxygen: false))
        #expect(score.subscore(.oxygenSaturation) == expected)
        #expect(score.subscore(.airOrOxygen) == 0)
    }

    @Test("SpO2 scale 2 on oxygen: 88–92 → 0, 93–94 → 1, 95–96 → 2, ≥97 → 3; below the target as on air", arguments: [
        (83.0, 3), (84, 2), (85, 2), (86, 1), (87, 1), (88, 0), (92, 0), (93, 1), (94, 1), (95, 2), (96, 2), (97, 3), (100, 3),
    ])
    func spO2Scale2OnOxygen(saturation: Double, expected: Int) throws {
        let score = try NEWS2Score(NEWS2Observations(oxygenSaturation: saturation, spO2Scale: .scale2, onSupplementalOxygen: true))
        #expect(score.subscore(.oxygenSaturation) == expected)
        #expect(score.subscore(.airOrOxygen) == 2)
        #expect(score.total == expected + 2)
    }

    @Test("the same saturation scores differently on the two scales")
    func scalesDiffer() throws {
        let onScale1 = try NEWS2Score(NEWS2Observations(oxygenSaturation: 89, spO2Scale: .scale1))
        let onScale2 = try NEWS2Score(NEWS2Observations(oxygenSaturation: 89, spO2Scale: .scale2))
        #expect(onScale1.subscore(.oxygenSaturation) == 3)
        #expect(onScale2.subscore(.oxygenSaturation) == 0)
    }

    @Test("air or oxygen: air → 0, supplemental oxygen → 2")
    func airOrOxygen() throws {
        #expect(try only(NEWS2Observations(onSupplementalOxygen: false), .airOrOxygen) == 0)
        #expect(try only(NEWS2Observations(onSupplementalOxygen: true), .airOrOxygen) == 2)
    }

    @Test("systolic blood pressure: ≤90 → 3, 91–100 → 2, 101–110 → 1, 111–219 → 0, ≥220 → 3", arguments: [
        (40.0, 3), (90, 3), (91, 2), (100, 2), (101, 1), (110, 1), (111, 0), (219, 0), (220, 3), (300, 3),
    ])
    func systolicBloodPressure(pressure: Double, expected: Int) throws {
        #expect(try only(NEWS2Observations(systolicBloodPressure: pressure), .systolicBloodPressure) == expected)
    }

    @Test("pulse: ≤40 → 3, 41–50 → 1, 51–90 → 0, 91–110 → 1, 111–130 → 2, ≥131 → 3", arguments: [
        (20.0, 3), (40, 3), (41, 1), (50, 1), (51, 0), (90, 0), (91, 1), (110, 1), (111, 2), (130, 2), (131, 3), (200, 3),
    ])
    func pulse(rate: Double, expected: Int) throws {
        #expect(try only(NEWS2Observations(pulse: rate), .pulse) == expected)
    }

    @Test("consciousness: alert → 0; new confusion, voice, pain, unresponsive → 3", arguments: [
        (ConsciousnessLevel.alert, 0), (.confusion, 3), (.voice, 3), (.pain, 3), (.unresponsive, 3),
    ])
    func consciousness(level: ConsciousnessLevel, expected: Int) throws {
        #expect(try only(NEWS2Observations(consciousness: level), .consciousness) == expected)
    }

    @Test("temperature: ≤35.0 → 3, 35.1–36.0 → 1, 36.1–38.0 → 0, 38.1–39.0 → 1, ≥39.1 → 2", arguments: [
        (30.0, 3), (35.0, 3), (35.1, 1), (36.0, 1), (36.1, 0), (38.0, 0), (38.1, 1), (39.0, 1), (39.1, 2), (42, 2),
    ])
    func temperature(celsius: Double, expected: Int) throws {
        #expect(try only(NEWS2Observations(temperature: celsius), .temperature) == expected)
    }
}

/// Values between two rows of the chart score the higher of the two rows.
@Suite("NEWS2 values between chart rows", .timeLimit(.minutes(5)), .timed)
struct NEWS2BetweenRowsTests {
    @Test("a value between two rows scores the worse row", arguments: [
        (NEWS2Observations(respirationRate: 8.5), NEWS2Parameter.respirationRate, 3),
        (NEWS2Observations(respirationRate: 11.5), .respirationRate, 1),
        (NEWS2Observations(respirationRate: 20.5), .respirationRate, 2),
        (NEWS2Observations(respirationRate: 24.5), .respirationRate, 3),
        (NEWS2Observations(oxygenSaturation: 91.5), .oxygenSaturation, 3),
        (NEWS2Observations(oxygenSaturation: 93.5), .oxygenSaturation, 2),
        (NEWS2Observations(oxygenSaturation: 95.5), .oxygenSaturation, 1),
        (NEWS2Observations(oxygenSaturation: 87.5, spO2Scale: .scale2), .oxygenSaturation, 1),
        (NEWS2Observations(oxygenSaturation: 92.5, spO2Scale: .scale2, onSupplementalOxygen: true), .oxygenSaturation, 1),
        (NEWS2Observations(oxygenSaturation: 92.5, spO2Scale: .scale2, onSupplementalOxygen: false), .oxygenSaturation, 0),
        (NEWS2Observations(oxygenSaturation: 96.5, spO2Scale: .scale2, onSupplementalOxygen: true), .oxygenSaturation, 3),
        (NEWS2Observations(systolicBloodPressure: 90.5), .systolicBloodPressure, 3),
        (NEWS2Observations(systolicBloodPressure: 110.5), .systolicBloodPressure, 1),
        (NEWS2Observations(systolicBloodPressure: 219.5), .systolicBloodPressure, 3),
        (NEWS2Observations(pulse: 40.5), .pulse, 3),
        (NEWS2Observations(pulse: 50.5), .pulse, 1),
        (NEWS2Observations(pulse: 90.5), .pulse, 1),
        (NEWS2Observations(pulse: 130.5), .pulse, 3),
        (NEWS2Observations(temperature: 35.05), .temperature, 3),
        (NEWS2Observations(temperature: 36.05), .temperature, 1),
        (NEWS2Observations(temperature: 38.05), .temperature, 1),
        (NEWS2Observations(temperature: 39.05), .temperature, 2),
    ])
    func worseRow(observations: NEWS2Observations, parameter: NEWS2Parameter, expected: Int) throws {
        #expect(try NEWS2Score(observations).subscore(parameter) == expected)
    }

    @Test("a bound reached through unit conversion belongs to its row")
    func convertedBound() throws {
        let celsius = try HealthQuantity(96.98, .degreeFahrenheit).value(in: .degreeCelsius)  // 36.1 °C up to rounding
        #expect(abs(celsius - 36.1) < 1e-6)
        #expect(try NEWS2Score(NEWS2Observations(temperature: celsius)).subscore(.temperature) == 0)
    }
}
