import Foundation
import SADEHealth

/// How a data item becomes health samples of its owner's patient record, so that the
/// monitoring pipeline evaluates what wearables send:
/// - `heartBpm` > 0 → `heartRate` in count/min at the item's `sentDate`;
/// - `steps` → `stepCount`: the watch sends the pedometer's count since its session
///   started, so a sample holds the steps since the owner's previous item from the
///   same device (over that interval), or all of them after a reset or at the first item;
/// - `temperature` within ``bodyTemperatures`` → `bodyTemperature` in degC. Readings
///   outside it are the air around a sensor (the ESP32's DHT11), not a body: kept in
///   the item, not made samples.
public enum WearableSampleMapping {
    /// The temperatures taken for a body's, in °C.
    public static let bodyTemperatures: ClosedRange<Double> = 30...45

    /// The samples of `item` for `patient`; `previous` is the owner's last item from
    /// the same device before it.
    public static func samples(
        of item: WearableDataItem, previous: WearableDataItem?, patient: PatientID, source: String
    ) -> [HealthSample] {
        let reading = item.reading
        let metadata = ["wearableDataItem": String(item.id)]
        func sample(_ type: QuantityType, _ value: Double, from start: Date? = nil) -> HealthSample {
            .quantity(
                type, value, type.canonicalUnit, patient: patient, at: start ?? item.sentDate, end: item.sentDate, device: reading.device,
                source: source, metadata: metadata)
        }
        var samples: [HealthSample] = []
        if reading.heartBpm > 0 { samples.append(sample(.heartRate, reading.heartBpm)) }
        if let previous, previous.reading.steps <= reading.steps, previous.sentDate <= item.sentDate {
            let steps = reading.steps - previous.reading.steps
            if steps > 0 { samples.append(sample(.stepCount, Double(steps), from: previous.sentDate)) }
        } else if reading.steps > 0 {
            samples.append(sample(.stepCount, Double(reading.steps)))
        }
        if bodyTemperatures.contains(reading.temperature) { samples.append(sample(.bodyTemperature, reading.temperature)) }
        return samples
    }
}
