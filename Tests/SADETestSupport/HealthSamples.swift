import Foundation
import SADEHealth

/// A fresh temporary directory, removed by ``remove()``.
public struct TemporaryDirectory {
    public let path: String

    public init() {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("sade-health-\(UUID().uuidString)").path
    }

    public func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// A fixed moment, so tests do not depend on the clock.
public let t0 = Date(timeIntervalSince1970: 1_700_000_000)

/// `t0` plus `minutes`.
public func at(_ minutes: Double) -> Date { t0.addingTimeInterval(minutes * 60) }

/// A heart-rate sample of `patient` at `minutes` after `t0`.
public func pulse(_ value: Double, _ patient: PatientID = "p-1", at minutes: Double) -> HealthSample {
    .quantity(.heartRate, value, patient: patient, at: at(minutes))
}
