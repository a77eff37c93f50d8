import Foundation
import SADEHealth
import SADENotification

/// Everything the monitoring system holds about one patient (their right of access):
/// the clinical record and every sample, the alerts raised and the notices sent about
/// them, their accounts, device tokens and wearable data items.
public struct PersonalData: Sendable {
    /// The patient's record.
    public let patient: Patient
    /// Every sample, oldest first (blood-pressure members inside their correlation).
    public let samples: [HealthSample]
    /// Every alert raised for them, newest first.
    public let alerts: [AlertRecord]
    /// Every notice sent about them (alerts and escalation steps), oldest first.
    public let notices: [Notice]
    /// Their accounts (a patient's own login, a wearable user's).
    public let accounts: [UserAccount]
    /// The device tokens issued for them, revoked ones included (never their secrets).
    public let deviceTokens: [DeviceToken]
    /// The wearable data items their accounts own.
    public let wearableItems: [WearableDataItem]
}

/// What erasing a patient removed, counted.
public struct ErasureReport: Sendable, Hashable, Codable {
    /// The patient erased.
    public let patient: PatientID
    /// Alerts removed.
    public let alerts: Int
    /// Notices removed, with their deliveries and escalation steps.
    public let notices: Int
    /// Accounts removed.
    public let accounts: Int
    /// Device tokens removed.
    public let deviceTokens: Int
    /// Wearable data items removed.
    public let wearableItems: Int
}

extension MonitoringSystem {
    /// Everything held about `patient`.
    ///
    /// - Throws: ``MonitoringError/notFound(_:)`` for an unknown patient.
    public func personalData(of patient: PatientID) async throws -> PersonalData {
        guard let record = try await health.patient(patient) else { throw MonitoringError.notFound("no patient \(patient)") }
        let samples = try await exportableSamples(of: patient, from: nil, until: nil)
        let accounts = try await accounts(of: patient)
        return PersonalData(
            patient: record, samples: samples, alerts: try await pipeline.book.alerts(status: .all, patients: [patient], limit: .max),
            notices: try await outbox.notices(about: patient.rawValue), accounts: accounts,
            deviceTokens: try await devices.tokens(for: patient),
            wearableItems: try await wearableStore.items(ownedByAnyOf: accounts.map(\.id)))
    }

    /// Erases `patient` from every store: their device tokens (no device writes for them
    /// any more), accounts and wearable items, their relatives' links to them, alerts, notices (none is sent any more),
    /// and last their record with every sample — so that an erasure cut short is finished
    /// by asking again. What stays: the audit trail's entries, which name them by
    /// identifier only, and the sample stores' deletion marks (identifiers and types, no
    /// values) that anchored readers need.
    ///
    /// - Throws: ``MonitoringError/notFound(_:)`` for an unknown patient,
    ///   ``MonitoringError/conflict(_:)`` while they are a flat's resident (a home's
    ///   sensor history is the flat's; move them out of it first).
    public func erase(_ patient: PatientID) async throws -> ErasureReport {
        guard try await health.patient(patient) != nil else { throw MonitoringError.notFound("no patient \(patient)") }
        if let flat = try await homeStore.flats().first(where: { $0.resident == patient }) {
            throw MonitoringError.conflict("patient \(patient) is the resident of flat \(flat.id): move them out of it first")
        }
        await simulatedMonitors.remove(patient)  // a demo's simulated monitor stops writing for them
        let deviceTokens = try await devices.deleteAll(for: patient)
        var wearableItems = 0
        let accounts = try await accounts(of: patient)
        for account in accounts {
            wearableItems += try await wearableStore.deleteItems(ownedBy: account.id)
            _ = try await self.accounts.delete(account.id)
        }
        // Their relatives keep their accounts (they may be others' relatives too), but not the link.
        for var relative in try await self.accounts.accounts(role: .relative) where relative.relativeOf.contains(patient) {
            relative.relativeOf.removeAll { $0 == patient }
            try await self.accounts.update(relative)
        }
        var alerts = try await pipeline.book.erase(patient)
        var notices = try await outbox.erase(about: patient.rawValue)
        await pipeline.anomalies.detector.stopMonitoring(patient)
        try await health.remove(patient)
        // An evaluation under way may have raised an alert meanwhile: gone too.
        alerts += try await pipeline.book.erase(patient)
        notices += try await outbox.erase(about: patient.rawValue)
        return ErasureReport(
            patient: patient, alerts: alerts, notices: notices, accounts: accounts.count, deviceTokens: deviceTokens,
            wearableItems: wearableItems)
    }

    /// Every sample of `patient` starting in `from..<until` (unbounded where `nil`), oldest
    /// first; blood-pressure members travel inside their correlation, not on their own.
    public func exportableSamples(of patient: PatientID, from: Date?, until: Date?) async throws -> [HealthSample] {
        var samples: [HealthSample] = []
        for type in HealthType.all {
            samples += try await health.samples(SampleQuery(type, patient: patient, from: from, until: until), as: .system)
        }
        let members = Set(
            samples.flatMap { sample -> [UUID] in
                guard case .correlation(let members) = sample.value else { return [] }
                return members.map(\.id)
            })
        return samples.filter { !members.contains($0.id) }
            .sorted { ($0.start, $0.type.identifier, $0.id.uuidString) < ($1.start, $1.type.identifier, $1.id.uuidString) }
    }

    /// The accounts linked to `patient`'s record.
    private func accounts(of patient: PatientID) async throws(MonitoringError) -> [UserAccount] {
        try await accounts.accounts(role: .patient).filter { $0.patientID == patient }
    }
}
