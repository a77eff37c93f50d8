import ArgumentParser
import Foundation
import SADEHealth

/// `sade news2`: the NEWS2 calculator — sub-scores, total, red flag and band of one
/// set of observations, as text or JSON.
struct News2Command: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "news2",
        abstract: "Compute the National Early Warning Score 2 (RCP 2017) of a set of observations.",
        discussion: """
            Every observation is optional; missing ones score nothing and are listed. The patient is on air \
            unless --oxygen is given. Values between two chart rows (RR 20.5) score the higher row. \
            With --json prints {"total": N, "redFlag": BOOL, "band": "low|low-medium|medium|high", \
            "subscores": {...}, "missing": [...], "response": {...}}.
            """
    )

    @Option(name: .customLong("rr"), help: "Respiration rate, breaths per minute.")
    var respirationRate: Double?

    @Option(name: .customLong("spo2"), help: "Oxygen saturation, %.")
    var oxygenSaturation: Double?

    @Option(help: "SpO2 scale: 1, or 2 for hypercapnic respiratory failure (target 88–92 %).")
    var scale: Int = 1

    @Flag(help: "The patient is on supplemental oxygen (air otherwise).")
    var oxygen = false

    @Option(name: .customLong("sbp"), help: "Systolic blood pressure, mmHg.")
    var systolicBloodPressure: Double?

    @Option(help: "Pulse, beats per minute.")
    var pulse: Double?

    @Option(help: "Level of consciousness: alert, confusion (new), voice, pain or unresponsive.")
    var consciousness: String?

    @Option(name: .customLong("temp"), help: "Temperature, °C.")
    var temperature: Double?

    @Flag(help: "Print the result as JSON.")
    var json = false

    /// The option each observation comes from, for error messages.
    private static let optionNames: [String: String] = [
        NEWS2Parameter.respirationRate.rawValue: "--rr", NEWS2Parameter.oxygenSaturation.rawValue: "--spo2",
        NEWS2Parameter.systolicBloodPressure.rawValue: "--sbp", NEWS2Parameter.pulse.rawValue: "--pulse",
        NEWS2Parameter.temperature.rawValue: "--temp",
    ]

    func validate() throws {
        _ = try score()
    }

    func run() throws {
        let score = try score()
        if json {
            print(try Self.json(score))
        } else {
            print(Self.text(score))
        }
    }

    /// Scores the options; any bad value is a usage error naming the option.
    private func score() throws -> NEWS2Score {
        guard let scale = SpO2Scale(rawValue: scale) else { throw ValidationError("--scale must be 1 or 2, not \(scale)") }
        var level: ConsciousnessLevel?
        if let consciousness {
            guard let match = ConsciousnessLevel.allCases.first(where: { "\($0)" == consciousness.lowercased() }) else {
                throw ValidationError(
                    "unknown --consciousness '\(consciousness)'; use one of "
                        + ConsciousnessLevel.allCases.map { "\($0)" }.joined(separator: ", "))
            }
            level = match
        }
        let observations = NEWS2Observations(
            respirationRate: respirationRate, oxygenSaturation: oxygenSaturation, spO2Scale: scale,
            onSupplementalOxygen: oxygen, systolicBloodPressure: systolicBloodPressure, pulse: pulse,
            consciousness: level, temperature: temperature)
        do {
            return try NEWS2Score(observations)
        } catch .invalidValue(let field, let reason) {
            throw ValidationError("\(Self.optionNames[field] ?? field): \(reason)")
        } catch {
            throw ValidationError(error.description)
        }
    }

    /// The score as a table for people.
    static func text(_ score: NEWS2Score) -> String {
        let observations = score.observations
        func number(_ value: Double) -> String {
            value == value.rounded() ? String(Int(value)) : String(value)
        }
        func shown(_ parameter: NEWS2Parameter) -> String {
            switch parameter {
            case .respirationRate: observations.respirationRate.map { "\(number($0)) /min" } ?? "missing"
            case .oxygenSaturation: observations.oxygenSaturation.map { "\(number($0)) %" } ?? "missing"
            case .airOrOxygen: observations.onSupplementalOxygen.map { $0 ? "oxygen" : "air" } ?? "missing"
            case .systolicBloodPressure: observations.systolicBloodPressure.map { "\(number($0)) mmHg" } ?? "missing"
            case .pulse: observations.pulse.map { "\(number($0)) /min" } ?? "missing"
            case .consciousness: observations.consciousness.map { "\($0)" } ?? "missing"
            case .temperature: observations.temperature.map { "\(number($0)) °C" } ?? "missing"
            }
        }
        func padded(_ text: String, _ width: Int) -> String {
            text + String(repeating: " ", count: max(1, width - text.count))
        }
        var lines: [String] = []
        for parameter in NEWS2Parameter.allCases {
            let title = parameter == .oxygenSaturation ? "SpO2 (scale \(observations.spO2Scale.rawValue))" : parameter.title
            let subscore = score.subscore(parameter).map(String.init) ?? "-"
            lines.append(padded(title, 26) + padded(shown(parameter), 12) + subscore)
        }
        lines.append("Total: \(score.total)")
        lines.append("Red flag: " + (score.redFlag ? "yes (\(score.redFlagParameters.map(\.title).joined(separator: ", ")))" : "no"))
        lines.append("Band: \(score.band)")
        if !score.missing.isEmpty {
            lines.append("Missing: \(score.missing.map(\.title).joined(separator: ", ")) (scored from the rest)")
        }
        let response = score.response
        lines.append("Response: \(response.kind), \(response.monitoring)")
        lines += response.actions.map { "  - \($0)" }
        return lines.joined(separator: "\n")
    }

    /// The score as one line of JSON.
    static func json(_ score: NEWS2Score) throws -> String {
        struct Output: Encodable {
            let total: Int
            let redFlag: Bool
            let band: NEWS2Band
            let subscores: [String: Int]
            let missing: [NEWS2Parameter]
            let response: NEWS2Response
        }
        let output = Output(
            total: score.total, redFlag: score.redFlag, band: score.band,
            subscores: Dictionary(uniqueKeysWithValues: score.subscores.map { ($0.key.rawValue, $0.value) }),
            missing: score.missing, response: score.response)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(output), as: UTF8.self)
    }
}
