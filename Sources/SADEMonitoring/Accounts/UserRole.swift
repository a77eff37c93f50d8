/// What an account may do on the monitoring server.
public enum UserRole: String, Hashable, Sendable, Codable, CaseIterable {
    /// Manages hospitals, sectors, staff, patients and devices; sees everything.
    case admin
    /// A doctor: sees the patients of their sectors.
    case doctor
    /// A nurse: sees the patients of their sectors.
    case nurse
    /// A patient: sees only their own record.
    case patient
    /// A monitoring device: may only write its own patient's samples.
    case device
    /// A relative (H.O.M.E.R.'s carer, SADE4Health's improvement #2): reads the latest
    /// vital signs and alerts of the patients linked to them and their flats, read only,
    /// and gets those flats' alarms as carers do.
    case relative

    /// Whether the role belongs to a health-care worker.
    public var isCareWorker: Bool { self == .doctor || self == .nurse }
}
