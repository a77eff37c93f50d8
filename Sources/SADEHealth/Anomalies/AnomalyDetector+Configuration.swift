import Foundation

extension AnomalyDetector {
    /// When the detector reports what, in seconds and fractions; the defaults suit
    /// remote monitoring with readings every few minutes.
    public struct Configuration: Hashable, Sendable {
        /// How long the values must have been back in range before an episode ends
        /// and the next abnormal value is a new alert (hysteresis). Default 5 minutes.
        public var rearmAfter: TimeInterval
        /// How old a reading may be and still count for NEWS2. Default 1 hour.
        public var news2Window: TimeInterval
        /// The lowest NEWS2 band that is an anomaly. Default ``NEWS2Band/lowMedium``
        /// (the RCP's first trigger for informing the medical team); with
        /// ``NEWS2Band/low`` any total of 1 or more is reported (as information).
        public var news2ReportingBand: NEWS2Band
        /// How long without any sample from a patient is an anomaly. Default 15 minutes.
        public var noDataAfter: TimeInterval
        /// The severity of a ``AnomalyKind/noData`` anomaly. Default warning.
        public var noDataSeverity: AnomalySeverity
        /// An out-of-range value further than this fraction of the typical range's
        /// width from the range is a warning; closer, it is information. Default 0.1.
        public var warningBeyond: Double
        /// An out-of-range value further than this fraction of the typical range's
        /// width from the range is an alarm. Default 0.5 (heart rate 51–90: above
        /// 109.5 or below 31.5; respiration rate 12–20: above 24 or below 8).
        public var alarmBeyond: Double
        /// How far ahead of the detector's clock a reading may be stamped and still
        /// count as current for NEWS2 (devices' clocks are never exactly in step with
        /// the server's). Default 1 minute.
        public var clockSkewTolerance: TimeInterval

        /// Creates a configuration; every value has a default.
        public init(
            rearmAfter: TimeInterval = 5 * 60, news2Window: TimeInterval = 60 * 60, news2ReportingBand: NEWS2Band = .lowMedium,
            noDataAfter: TimeInterval = 15 * 60, noDataSeverity: AnomalySeverity = .warning, warningBeyond: Double = 0.1,
            alarmBeyond: Double = 0.5, clockSkewTolerance: TimeInterval = 60
        ) {
            self.rearmAfter = rearmAfter
            self.news2Window = news2Window
            self.news2ReportingBand = news2ReportingBand
            self.noDataAfter = noDataAfter
            self.noDataSeverity = noDataSeverity
            self.warningBeyond = warningBeyond
            self.alarmBeyond = alarmBeyond
            self.clockSkewTolerance = clockSkewTolerance
        }

        /// The severity of `value` against `range`: `nil` inside it; otherwise by how
        /// far outside it lies, measured in widths of the range.
        public func severity(of value: Double, in range: ClosedRange<Double>) -> AnomalySeverity? {
            guard !range.contains(value) else { return nil }
            let excess = value < range.lowerBound ? range.lowerBound - value : value - range.upperBound
            let width = range.upperBound - range.lowerBound
            guard width > 0 else { return .warning }
            let distance = excess / width
            if distance > alarmBeyond { return .alarm }
            if distance > warningBeyond { return .warning }
            return .information
        }

        /// The severity of a NEWS2 score, `nil` below ``news2ReportingBand`` or at 0.
        public func severity(of score: NEWS2Score) -> AnomalySeverity? {
            guard score.total > 0, score.band >= news2ReportingBand else { return nil }
            return AnomalySeverity(score.band)
        }
    }
}
