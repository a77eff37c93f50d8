import Foundation
import SADECore
import SADEHealth

/// How the simulator moves vital signs: jitter within the ranges that score 0 on
/// NEWS2, a drift towards the worst values, single spikes.
extension VitalSigns {
    /// The values a deteriorating patient ends at: NEWS2 15 on air (HR 128, SpO2 89,
    /// RR 27, 39.3 °C, 95/58 mmHg, newly confused).
    static func worst(onOxygen: Bool) -> VitalSigns {
        VitalSigns(
            heartRate: 128, oxygenSaturation: 89, respiratoryRate: 27, bodyTemperature: 39.3, systolicBloodPressure: 95,
            diastolicBloodPressure: 58, consciousness: .confusion, onSupplementalOxygen: onOxygen)
    }

    /// These values moved `progress` (0…1) of the way to `target`; confusion sets in
    /// at 90 %.
    func drifted(toward target: VitalSigns, by progress: Double) -> VitalSigns {
        func mix(_ from: Double, _ to: Double) -> Double { from + (to - from) * progress }
        return VitalSigns(
            heartRate: mix(heartRate, target.heartRate), oxygenSaturation: mix(oxygenSaturation, target.oxygenSaturation),
            respiratoryRate: mix(respiratoryRate, target.respiratoryRate), bodyTemperature: mix(bodyTemperature, target.bodyTemperature),
            systolicBloodPressure: mix(systolicBloodPressure, target.systolicBloodPressure),
            diastolicBloodPressure: mix(diastolicBloodPressure, target.diastolicBloodPressure),
            consciousness: progress >= 0.9 ? target.consciousness : consciousness, onSupplementalOxygen: onSupplementalOxygen)
    }

    /// These values with random jitter (`scale` 1 is a calm monitor, 2 a noisy one),
    /// rounded as monitors show them. Values in the normal ranges stay in them.
    func jittered(by scale: Double, using random: inout SeededRandom) -> VitalSigns {
        let normal = self.isNormal
        func value(_ base: Double, _ spread: Double, _ range: ClosedRange<Double>, places: Double = 1) -> Double {
            var value = base + random.jitter(spread * scale)
            if normal { value = min(range.upperBound, max(range.lowerBound, value)) }
            return (value * places).rounded() / places
        }
        return VitalSigns(
            heartRate: value(heartRate, 4, 52...90), oxygenSaturation: min(100, value(oxygenSaturation, 0.6, 96...100)),
            respiratoryRate: value(respiratoryRate, 1, 12...20), bodyTemperature: value(bodyTemperature, 0.1, 36.1...38.0, places: 10),
            systolicBloodPressure: value(systolicBloodPressure, 4, 112...160), diastolicBloodPressure: value(diastolicBloodPressure, 3, 55...90),
            consciousness: consciousness, onSupplementalOxygen: onSupplementalOxygen)
    }

    /// One parameter out of its normal range for this reading only: a fast pulse, a low
    /// saturation, a fast breath or a slight fever (each scores 1–2 on NEWS2).
    mutating func spike(using random: inout SeededRandom) {
        switch random.next() % 4 {
        case 0: heartRate = Double(112 + random.next() % 12)
        case 1: oxygenSaturation = Double(92 + random.next() % 2)
        case 2: respiratoryRate = Double(21 + random.next() % 3)
        default: bodyTemperature = ((38.2 + Double(random.next() % 7) / 10) * 10).rounded() / 10
        }
    }

    /// Whether every value lies where NEWS2 scores 0 (oxygen aside).
    private var isNormal: Bool {
        (52...90).contains(heartRate) && oxygenSaturation >= 96 && (12...20).contains(respiratoryRate)
            && (36.1...38.0).contains(bodyTemperature) && systolicBloodPressure >= 111 && consciousness == .alert
    }
}
