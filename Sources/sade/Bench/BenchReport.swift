import Foundation

/// Prints figures as a table while suites run, or as one JSON array at the end.
struct BenchReport {
    /// Whether the output is JSON.
    let json: Bool

    /// The line above the table.
    func header(quick: Bool) {
        guard !json else { return }
        let mode = quick ? "quick (small sizes, figures not comparable)" : "full"
        say("sade bench — \(mode); value = median of the runs ±spread; ratio = value ÷ baseline")
    }

    /// Announces a suite (to standard error in JSON mode, so stdout stays one array).
    func starting(_ suite: any BenchSuite) {
        let line = "\n[\(suite.name)] \(suite.workload)"
        if json { FileHandle.standardError.write(Data((line + "\n").utf8)) } else { say(line) }
    }

    /// Prints one suite's figures as table rows.
    func print(_ figures: [BenchFigure]) {
        guard !json else { return }
        for figure in figures {
            let name = figure.figure + String(repeating: " ", count: max(1, 44 - figure.figure.count))
            var line = "  \(name)\(Self.number(figure.value)) \(figure.unit)"
            if figure.spread > 0 { line += " ±\(Self.percent(figure.spread / 2))" }
            if let baseline = figure.baseline, let ratio = figure.ratio {
                line += "  | \(figure.baselineName ?? "baseline") \(Self.number(baseline)) → ×\(Self.ratio(ratio))"
            }
            if let target = figure.target { line += "  [target \(target)]" }
            say(line)
        }
    }

    /// Prints the JSON array (JSON mode only).
    func finish(_ figures: [BenchFigure]) {
        guard json else { return }
        say("[\n" + figures.map(Self.jsonObject).joined(separator: ",\n") + "\n]")
    }

    static func jsonObject(_ figure: BenchFigure) -> String {
        func number(_ value: Double?) -> String {
            guard let value, value.isFinite else { return "null" }
            return "\(value)"
        }
        func string(_ text: String) -> String {
            let encoder = JSONEncoder()
            encoder.outputFormatting = .withoutEscapingSlashes
            let data = (try? encoder.encode(text)) ?? Data("\"\"".utf8)
            return String(decoding: data, as: UTF8.self)
        }
        return """
              {"suite": \(string(figure.suite)), "figure": \(string(figure.figure)), "value": \(number(figure.value)), \
            "unit": \(string(figure.unit)), "baseline": \(number(figure.baseline)), "ratio": \(number(figure.ratio))}
            """
    }

    /// A readable number: thousands separated, three significant digits below 1,000.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "n/a" }
        if abs(value) >= 1000 {
            let formatter = NumberFormatter()
            formatter.numberStyle = .decimal
            formatter.maximumFractionDigits = 0
            return formatter.string(from: NSNumber(value: value.rounded())) ?? "\(Int(value))"
        }
        return String(format: abs(value) >= 100 ? "%.0f" : abs(value) >= 10 ? "%.1f" : "%.2f", value)
    }

    static func percent(_ fraction: Double) -> String { String(format: "%.0f%%", fraction * 100) }

    static func ratio(_ value: Double) -> String { String(format: value >= 10 ? "%.1f" : "%.2f", value) }

    private func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
