import Foundation
import SADEHealth
import SADETestTiming
import Testing

@Suite("NEWS2 score: total, red flag, bands, missing parameters", .timeLimit(.minutes(5)), .timed)
struct NEWS2ScoreTests {
    /// Observations that score 0 in every parameter.
    private let normal = NEWS2Observations(
        respirationRate: 16, oxygenSaturation: 98, onSupplementalOxygen: false, systolicBloodPressure: 120, pulse: 70,
        consciousness: .alert, temperature: 37)

    @Test("the issue's worked example: RR 22, SpO2 95 % on oxygen, SBP 105, pulse 115, alert, 38.5 °C → 9, high, no red flag")
    func workedExample() throws {
        let score = try NEWS2Score(NEWS2Observations(
            respirationRate: 22, oxygenSaturation: 95, spO2Scale: .scale1, onSupplementalOxygen: true,
            systolicBloodPressure: 105, pulse: 115, consciousness: .alert, temperature: 38.5))
        #expect(score.subscores == [
            .respirationRate: 2, .oxygenSaturation: 1, .airOrOxygen: 2, .systolicBloodPressure: 1, .pulse: 2,
            .consciousness: 0, .temperature: 1,
        ])
        #expect(score.total == 9)
        #expect(!score.redFlag)
        #expect(score.band == .high)
        #expect(score.isComplete)
        #expect(score.response.monitoring == "continuous monitoring of vital signs")
    }

    @Test("a COPD patient on scale 2 at 97 % on oxygen scores 3 + 2 for oxygen: medium with a red flag")
    func scale2OverOxygenated() throws {
        var observations = normal
        observations.spO2Scale = .scale2
        observations.oxygenSaturation = 97
        observations.onSupplementalOxygen = true
        let score = try NEWS2Score(observations)
        #expect(score.total == 5)
        #expect(score.redFlag)
        #expect(score.redFlagParameters == [.oxygenSaturation])
        #expect(score.band == .medium)
    }

    @Test("all normal: total 0, band low, routine monitoring")
    func allNormal() throws {
        let score = try NEWS2Score(normal)
        #expect(score.total == 0)
        #expect(score.band == .low)
        #expect(!score.redFlag)
        #expect(score.response.monitoring == "minimum 12-hourly")
        #expect(score.response.actions == ["Continue routine NEWS monitoring."])
    }

    @Test("bands: 1–4 low, a single 3 below 5 low-medium, 5–6 medium (with or without a 3), 7+ high", arguments: [
        // (changes to the normal set, total, red flag, band)
        (NEWS2Observations(pulse: 95), 1, false, NEWS2Band.low),
        (NEWS2Observations(respirationRate: 22, pulse: 95, temperature: 38.5), 4, false, .low),
        (NEWS2Observations(respirationRate: 25), 3, true, .lowMedium),
        (NEWS2Observations(consciousness: .confusion), 3, true, .lowMedium),
        (NEWS2Observations(respirationRate: 25, pulse: 95), 4, true, .lowMedium),
        (NEWS2Observations(respirationRate: 22, pulse: 115, temperature: 38.5), 5, false, .medium),
        (NEWS2Observations(respirationRate: 25, pulse: 115), 5, true, .medium),
        (NEWS2Observations(respirationRate: 22, pulse: 115, temperature: 39.5), 6, false, .medium),
        (NEWS2Observations(oxygenSaturation: 93, onSupplementalOxygen: true, systolicBloodPressure: 105, temperature: 38.5), 6, false, .medium),
        (NEWS2Observations(respirationRate: 22, onSupplementalOxygen: true, pulse: 115, temperature: 39.5), 8, false, .high),
        (NEWS2Observations(respirationRate: 22, systolicBloodPressure: 105, pulse: 115, temperature: 39.5), 7, false, .high),
    ])
    func bands(changes: NEWS2Observations, total: Int, redFlag: Bool, band: NEWS2Band) throws {
        var observations = normal
        for parameter in NEWS2Parameter.allCases where changes.isPresent(parameter) {
            switch parameter {
            case .respirationRate: observations.respirationRate = changes.respirationRate
            case .oxygenSaturation: observations.oxygenSaturation = changes.oxygenSaturation
            case .airOrOxygen: observations.onSupplementalOxygen = changes.onSupplementalOxygen
            case .systolicBloodPressure: observations.systolicBloodPressure = changes.systolicBloodPressure
            case .pulse: observations.pulse = changes.pulse
            case .consciousness: observations.consciousness = changes.consciousness
            case .temperature: observations.temperature = changes.temperature
            }
        }
        let score = try NEWS2Score(observations)
        #expect(score.total == total)
        #expect(score.redFlag == redFlag)
        #expect(score.band == band)
    }

    @Test("the worst case scores 20, high, red flag")
    func maximum() throws {
        let score = try NEWS2Score(NEWS2Observations(
            respirationRate: 30, oxygenSaturation: 85, onSupplementalOxygen: true, systolicBloodPressure: 80, pulse: 140,
            consciousness: .unresponsive, temperature: 34))
        #expect(score.total == 3 + 3 + 2 + 3 + 3 + 3 + 3)
        #expect(score.band == .high)
        #expect(score.redFlag)
    }

    @Test("band order and the band's encoded names")
    func bandOrder() {
        #expect(NEWS2Band.low < .lowMedium && NEWS2Band.lowMedium < .medium && NEWS2Band.medium < .high)
        #expect(NEWS2Band.allCases.map(\.rawValue) == ["low", "low-medium", "medium", "high"])
    }

    @Test("each band has the RCP's response")
    func responses() throws {
        #expect(NEWS2Response(total: 3, band: .low).monitoring == "minimum 4–6-hourly")
        #expect(NEWS2Response(total: 3, band: .lowMedium).kind == "Urgent ward-based response")
        #expect(NEWS2Response(total: 3, band: .lowMedium).monitoring == "minimum 1-hourly")
        #expect(NEWS2Response(total: 5, band: .medium).kind == "Key threshold for urgent response")
        #expect(NEWS2Response(total: 7, band: .high).kind == "Urgent or emergency response")
    }
}

@Suite("NEWS2 with missing parameters and impossible values", .timeLimit(.minutes(5)), .timed)
struct NEWS2MissingAndInvalidTests {
    @Test("nothing recorded: total 0, every parameter missing")
    func nothingRecorded() throws {
        let score = try NEWS2Score(NEWS2Observations())
        #expect(score.total == 0)
        #expect(score.subscores.isEmpty)
        #expect(score.missing == NEWS2Parameter.allCases)
        #expect(!score.isComplete)
    }

    @Test("scored from what is present; the rest is listed in chart order")
    func partial() throws {
        let score = try NEWS2Score(NEWS2Observations(respirationRate: 25, pulse: 115))
        #expect(score.total == 5)
        #expect(score.band == .medium)
        #expect(score.missing == [.oxygenSaturation, .airOrOxygen, .systolicBloodPressure, .consciousness, .temperature])
        #expect(score.subscore(.temperature) == nil)
    }

    @Test("unknown air or oxygen scores as air on scale 2 and is reported missing")
    func unknownOxygenOnScale2() throws {
        let score = try NEWS2Score(NEWS2Observations(oxygenSaturation: 97, spO2Scale: .scale2))
        #expect(score.subscore(.oxygenSaturation) == 0)
        #expect(score.missing.contains(.airOrOxygen))
    }

    @Test("an impossible value is an error naming the parameter", arguments: [
        (NEWS2Observations(oxygenSaturation: 101), "oxygenSaturation"),
        (NEWS2Observations(respirationRate: -1), "respirationRate"),
        (NEWS2Observations(temperature: 50), "temperature"),
        (NEWS2Observations(pulse: .nan), "pulse"),
        (NEWS2Observations(systolicBloodPressure: .infinity), "systolicBloodPressure"),
    ])
    func impossibleValue(observations: NEWS2Observations, field: String) {
        #expect {
            try NEWS2Score(observations)
        } throws: { error in
            guard case HealthError.invalidValue(let named, _) = error else { return false }
            return named == field
        }
    }

    @Test("JSON: band as low-medium, subscores keyed by parameter; decoding scores again")
    func codable() throws {
        let score = try NEWS2Score(NEWS2Observations(respirationRate: 25, pulse: 95))
        let data = try JSONEncoder().encode(score)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["band"] as? String == "low-medium")
        #expect(object["total"] as? Int == 4)
        #expect(object["redFlag"] as? Bool == true)
        #expect((object["subscores"] as? [String: Int]) == ["respirationRate": 3, "pulse": 1])
        #expect(try JSONDecoder().decode(NEWS2Score.self, from: data) == score)
    }
}
