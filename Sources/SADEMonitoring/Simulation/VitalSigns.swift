import Foundation
import SADEHealth

/// One set of vital signs, as a bedside monitor reads them.
public struct VitalSigns: Hashable, Sendable, Codable {
    /// Beats per minute.
    public var heartRate: Double
    /// Peripheral oxygen saturation, %.
    public var oxygenSaturation: Double
    /// Breaths per minute.
    public var respiratoryRate: Double
    /// Body temperature, °C.
    public var bodyTemperature: Double
    /// Systolic blood pressure, mmHg.
    public var systolicBloodPressure: Double
    /// Diastolic blood pressure, mmHg.
    public var diastolicBloodPressure: Double
    /// ACVPU.
    public var consciousness: ConsciousnessLevel
    /// Whether the patient breathes supplemental oxygen.
    public var onSupplementalOxygen: Bool

    /// Creates a set of vital signs.
    public init(
        heartRate: Double, oxygenSaturation: Double, respiratoryRate: Double, bodyTemperature: Double, systolicBloodPressure: Double,
        diastolicBloodPressure: Double, consciousness: ConsciousnessLevel = .alert, onSupplementalOxygen: Bool = false
    ) {
        self.heartRate = heartRate
        self.oxygenSaturation = oxygenSaturation
        self.respiratoryRate = respiratoryRate
        self.bodyTemperature = bodyTemperature
        self.systolicBloodPressure = systolicBloodPressure
        self.diastolicBloodPressure = diastolicBloodPressure
        self.consciousness = consciousness
        self.onSupplementalOxygen = onSupplementalOxygen
    }

    /// The NEWS2 of these vital signs (SpO2 on scale 1 unless `scale2`).
    ///
    /// - Throws: ``HealthError/invalidValue(field:reason:)`` for an impossible value.
    public func news2(scale2: Bool = false) throws(HealthError) -> NEWS2Score {
        try NEWS2Score(NEWS2Observations(
            respirationRate: respiratoryRate, oxygenSaturation: oxygenSaturation, spO2Scale: scale2 ? .scale2 : .scale1,
            onSupplementalOxygen: onSupplementalOxygen, systolicBloodPressure: systolicBloodPressure, pulse: heartRate,
            consciousness: consciousness, temperature: bodyTemperature))
    }
}
