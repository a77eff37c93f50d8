/// The scoring rows of the NEWS2 chart (Royal College of Physicians, *National Early
/// Warning Score (NEWS) 2*, 2017, chart 1): each parameter scores 0 to 3.
///
/// | Parameter        | 3      | 2      | 1         | 0                    | 1               | 2               | 3               |
/// |------------------|--------|--------|-----------|----------------------|-----------------|-----------------|-----------------|
/// | Respiration rate | ≤ 8    |        | 9–11      | 12–20                |                 | 21–24           | ≥ 25            |
/// | SpO2 scale 1     | ≤ 91   | 92–93  | 94–95     | ≥ 96                 |                 |                 |                 |
/// | SpO2 scale 2     | ≤ 83   | 84–85  | 86–87     | 88–92, ≥ 93 on air   | 93–94 on oxygen | 95–96 on oxygen | ≥ 97 on oxygen  |
/// | Air or oxygen    |        | oxygen |           | air                  |                 |                 |                 |
/// | Systolic BP      | ≤ 90   | 91–100 | 101–110   | 111–219              |                 |                 | ≥ 220           |
/// | Pulse            | ≤ 40   |        | 41–50     | 51–90                | 91–110          | 111–130         | ≥ 131           |
/// | Consciousness    |        |        |           | alert                |                 |                 | C, V, P or U    |
/// | Temperature      | ≤ 35.0 |        | 35.1–36.0 | 36.1–38.0            | 38.1–39.0       | ≥ 39.1          |                 |
///
/// **Values between two rows.** The chart is written for whole numbers (one decimal
/// for temperature). A value that falls between two adjacent rows — a respiration
/// rate of 20.5, a temperature of 36.05 °C — scores the *higher* of the two rows, so
/// a reading is never scored as less abnormal than either neighbour: RR 20.5 → 2,
/// RR 8.5 → 3, SpO2 95.5 % → 1, temperature 38.05 °C → 1. Values on a row's bound
/// (within floating-point error, e.g. 36.1 °C converted from °F) belong to that row.
public enum NEWS2Chart {
    /// Tolerance for values that equal a row's bound up to floating-point error.
    private static let tolerance = 1e-9

    private static func atLeast(_ value: Double, _ bound: Double) -> Bool { value >= bound - tolerance }
    private static func above(_ value: Double, _ bound: Double) -> Bool { value > bound + tolerance }

    /// Respiration rate (per minute): ≤8 → 3, 9–11 → 1, 12–20 → 0, 21–24 → 2, ≥25 → 3.
    public static func respirationRate(_ rate: Double) -> Int {
        if above(rate, 24) { return 3 }
        if above(rate, 20) { return 2 }
        if atLeast(rate, 12) { return 0 }
        if atLeast(rate, 9) { return 1 }
        return 3
    }

    /// SpO2 (%) on `scale`; on scale 2 the score above 92 % depends on oxygen.
    public static func oxygenSaturation(_ saturation: Double, scale: SpO2Scale, onOxygen: Bool) -> Int {
        switch scale {
        case .scale1:
            if atLeast(saturation, 96) { return 0 }
            if atLeast(saturation, 94) { return 1 }
            if atLeast(saturation, 92) { return 2 }
            return 3
        case .scale2:
            if above(saturation, 92) {  // above the hypercapnic target: scores only on oxygen
                guard onOxygen else { return 0 }
                if above(saturation, 96) { return 3 }
                if above(saturation, 94) { return 2 }
                return 1
            }
            if atLeast(saturation, 88) { return 0 }
            if atLeast(saturation, 86) { return 1 }
            if atLeast(saturation, 84) { return 2 }
            return 3
        }
    }

    /// Air → 0, supplemental oxygen → 2.
    public static func airOrOxygen(onOxygen: Bool) -> Int { onOxygen ? 2 : 0 }

    /// Systolic blood pressure (mmHg): ≤90 → 3, 91–100 → 2, 101–110 → 1, 111–219 → 0, ≥220 → 3.
    public static func systolicBloodPressure(_ pressure: Double) -> Int {
        if above(pressure, 219) { return 3 }
        if atLeast(pressure, 111) { return 0 }
        if atLeast(pressure, 101) { return 1 }
        if atLeast(pressure, 91) { return 2 }
        return 3
    }

    /// Pulse (per minute): ≤40 → 3, 41–50 → 1, 51–90 → 0, 91–110 → 1, 111–130 → 2, ≥131 → 3.
    public static func pulse(_ rate: Double) -> Int {
        if above(rate, 130) { return 3 }
        if above(rate, 110) { return 2 }
        if above(rate, 90) { return 1 }
        if atLeast(rate, 51) { return 0 }
        if atLeast(rate, 41) { return 1 }
        return 3
    }

    /// Consciousness: alert → 0; new confusion, voice, pain or unresponsive → 3.
    public static func consciousness(_ level: ConsciousnessLevel) -> Int { level == .alert ? 0 : 3 }

    /// Temperature (°C): ≤35.0 → 3, 35.1–36.0 → 1, 36.1–38.0 → 0, 38.1–39.0 → 1, ≥39.1 → 2.
    public static func temperature(_ celsius: Double) -> Int {
        if above(celsius, 39.0) { return 2 }
        if above(celsius, 38.0) { return 1 }
        if atLeast(celsius, 36.1) { return 0 }
        if atLeast(celsius, 35.1) { return 1 }
        return 3
    }
}
