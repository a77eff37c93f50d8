import Foundation
import SADETestSupport
import SADETestTiming
import Testing

@Suite("sade news2 (the command)", .timeLimit(.minutes(3)), .timed)
struct News2CommandTests {
    private let example = [
        "news2", "--rr", "22", "--spo2", "95", "--scale", "1", "--oxygen", "--sbp", "105", "--pulse", "115",
        "--consciousness", "alert", "--temp", "38.5",
    ]

    @Test("prints each sub-score, the total, the red flag and the band")
    func text() async throws {
        let result = try await SadeProcess.run(example)
        #expect(result.status == 0, "stderr: \(result.error)")
        let lines = result.output.split(separator: "\n").map(String.init)
        func row(_ title: String) -> String? { lines.first { $0.hasPrefix(title) } }
        #expect(row("Respiration rate")?.hasSuffix(" 2") == true, "\(result.output)")
        #expect(row("SpO2 (scale 1)")?.hasSuffix(" 1") == true)
        #expect(row("Air or oxygen")?.contains("oxygen") == true)
        #expect(row("Air or oxygen")?.hasSuffix(" 2") == true)
        #expect(row("Systolic blood pressure")?.hasSuffix(" 1") == true)
        #expect(row("Pulse")?.hasSuffix(" 2") == true)
        #expect(row("Consciousness")?.hasSuffix(" 0") == true)
        #expect(row("Temperature")?.hasSuffix(" 1") == true)
        #expect(lines.contains("Total: 9"))
        #expect(lines.contains("Red flag: no"))
        #expect(lines.contains("Band: high"))
    }

    @Test("--json prints total, redFlag, band and subscores")
    func json() async throws {
        let result = try await SadeProcess.run(example + ["--json"])
        #expect(result.status == 0, "stderr: \(result.error)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        #expect(object["total"] as? Int == 9)
        #expect(object["redFlag"] as? Bool == false)
        #expect(object["band"] as? String == "high")
        #expect((object["subscores"] as? [String: Int]) == [
            "respirationRate": 2, "oxygenSaturation": 1, "airOrOxygen": 2, "systolicBloodPressure": 1, "pulse": 2,
            "consciousness": 0, "temperature": 1,
        ])
        #expect((object["missing"] as? [String]) == [])
    }

    @Test("a single 3 on air, other observations missing: low-medium with a red flag")
    func redFlagJSON() async throws {
        let result = try await SadeProcess.run(["news2", "--consciousness", "confusion", "--json"])
        #expect(result.status == 0, "stderr: \(result.error)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        #expect(object["band"] as? String == "low-medium")
        #expect(object["redFlag"] as? Bool == true)
        #expect(object["total"] as? Int == 3)
        #expect((object["subscores"] as? [String: Int]) == ["consciousness": 3, "airOrOxygen": 0])
        #expect((object["missing"] as? [String])?.count == 5)
    }

    @Test("scale 2 on oxygen at 97 % scores 3", arguments: [("1", 0), ("2", 3)])
    func scale(scale: String, expected: Int) async throws {
        let result = try await SadeProcess.run(["news2", "--spo2", "97", "--oxygen", "--scale", scale, "--json"])
        #expect(result.status == 0, "stderr: \(result.error)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        #expect((object["subscores"] as? [String: Int])?["oxygenSaturation"] == expected)
    }

    @Test("impossible values and unknown words are usage errors (exit 64)", arguments: [
        ["news2", "--spo2", "101"], ["news2", "--rr", "-3"], ["news2", "--temp", "60"], ["news2", "--pulse", "nan"],
        ["news2", "--consciousness", "sleepy"], ["news2", "--scale", "3"], ["news2", "--sbp", "high"],
    ])
    func badInput(arguments: [String]) async throws {
        let result = try await SadeProcess.run(arguments)
        #expect(result.status == 64, "stdout: \(result.output) stderr: \(result.error)")
        #expect(result.error.contains("Error:"), "stderr: \(result.error)")
        #expect(result.output.isEmpty)
    }

    @Test("an unknown consciousness level names the accepted ones")
    func consciousnessMessage() async throws {
        let result = try await SadeProcess.run(["news2", "--consciousness", "sleepy"])
        #expect(result.error.contains("alert, confusion, voice, pain, unresponsive"), "stderr: \(result.error)")
    }
}
