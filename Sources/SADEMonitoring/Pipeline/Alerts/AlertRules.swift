import SADEHealth

/// Which anomalies page someone, who is asked first, and how an unacknowledged alert
/// escalates.
///
/// By default a patient's condition pages when NEWS2 reaches the RCP's key threshold
/// (aggregate 5, ``NEWS2Band/medium``); a single reading out of range only shows on
/// the dashboards, so a noisy sensor's spike pages nobody. Silent devices of an
/// admitted patient page too.
public struct AlertRules: Hashable, Sendable {
    /// The lowest NEWS2 band that pages. Default ``NEWS2Band/medium``.
    public var minimumNEWS2Band: NEWS2Band
    /// Out-of-range readings page at or above this severity; `nil` (default): never.
    public var outOfRangeSeverity: AnomalySeverity?
    /// Whether an admitted patient without data pages. Default `true`.
    public var pageOnNoData: Bool
    /// Who is called for proposals: workers of these roles on duty in the patient's
    /// sector. Default nurses.
    public var contractors: Set<HealthCareWorker.Role>
    /// How long proposals are awaited. Default 10 seconds.
    public var proposalDeadline: Duration
    /// When the sector's doctors are told of an unacknowledged alert. Default 5 minutes.
    public var doctorAfter: Duration
    /// When the sector's mailing list is e-mailed about an unacknowledged alert. Default 15 minutes.
    public var mailAfter: Duration

    /// Creates rules; every value has a default.
    public init(
        minimumNEWS2Band: NEWS2Band = .medium, outOfRangeSeverity: AnomalySeverity? = nil, pageOnNoData: Bool = true,
        contractors: Set<HealthCareWorker.Role> = [.nurse], proposalDeadline: Duration = .seconds(10),
        doctorAfter: Duration = .seconds(300), mailAfter: Duration = .seconds(900)
    ) {
        self.minimumNEWS2Band = minimumNEWS2Band
        self.outOfRangeSeverity = outOfRangeSeverity
        self.pageOnNoData = pageOnNoData
        self.contractors = contractors
        self.proposalDeadline = proposalDeadline
        self.doctorAfter = doctorAfter
        self.mailAfter = mailAfter
    }

    /// The category an anomaly's alert belongs to.
    public func category(of anomaly: Anomaly) -> AlertCategory {
        anomaly.kind == .noData ? .device : .clinical
    }

    /// Whether the anomaly (an onset or escalation) warrants an alert.
    public func pages(_ anomaly: Anomaly) -> Bool {
        guard anomaly.phase != .resolved else { return false }
        switch anomaly.kind {
        case .news2: return (anomaly.score?.band).map { $0 >= minimumNEWS2Band } ?? false
        case .outOfRange: return outOfRangeSeverity.map { anomaly.severity >= $0 } ?? false
        case .noData: return pageOnNoData
        }
    }
}
