import Foundation
import SADEHealth

extension MonitoringPipeline {
    /// The sample types the collector reads by default: the vital signs NEWS2 and the
    /// detector use (blood pressure as its systolic and diastolic members), and steps.
    public static let defaultCollectedTypes: [HealthType] =
        [.heartRate, .oxygenSaturation, .respiratoryRate, .bodyTemperature, .bloodPressureSystolic, .bloodPressureDiastolic, .stepCount]
        .map(HealthType.quantity) + [.consciousnessLevel, .supplementalOxygen].map(HealthType.category)

    /// How the pipeline runs; every value but ``epoch`` has a default.
    public struct Configuration: Sendable {
        /// The date at which the platform clock read zero: pipeline time is this plus the
        /// platform clock's elapsed time (pass the platform's creation date, or a fixed
        /// date with a `ManualClock` in tests).
        public var epoch: Date
        /// The time between collections. Default 2 seconds.
        public var collectionInterval: Duration
        /// At most this many new samples of each type per collection. Default 1000.
        public var batchLimit: Int
        /// The sample types read from the store.
        public var collectedTypes: [HealthType]
        /// The time between checks for silent devices. Default 1 minute.
        public var missingDataInterval: Duration
        /// The time between looks for escalation steps (besides every outbox delivery). Default 10 seconds.
        public var escalationCheckInterval: Duration
        /// The anomaly detector's settings (hysteresis, NEWS2 window, no-data delay).
        public var detector: AnomalyDetector.Configuration
        /// What pages whom, and the escalation delays.
        public var alertRules: AlertRules

        /// Creates a configuration.
        public init(
            epoch: Date, collectionInterval: Duration = .seconds(2), batchLimit: Int = 1000,
            collectedTypes: [HealthType] = MonitoringPipeline.defaultCollectedTypes, missingDataInterval: Duration = .seconds(60),
            escalationCheckInterval: Duration = .seconds(10), detector: AnomalyDetector.Configuration = .init(),
            alertRules: AlertRules = .init()
        ) {
            self.epoch = epoch
            self.collectionInterval = collectionInterval
            self.batchLimit = batchLimit
            self.collectedTypes = collectedTypes
            self.missingDataInterval = missingDataInterval
            self.escalationCheckInterval = escalationCheckInterval
            self.detector = detector
            self.alertRules = alertRules
        }
    }
}
