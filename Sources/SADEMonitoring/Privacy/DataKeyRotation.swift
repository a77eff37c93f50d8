import Foundation
import SADEHealth

/// Sealing every identifying record again under a ring's current key: what `sade keys
/// rotate` does between adding a new key and retiring the old ones (and what seals,
/// the first time, records written before there was a key).
public enum DataKeyRotation {
    /// How many records were sealed again.
    public struct Report: Sendable, Hashable {
        public let patients: Int
        public let workers: Int
        public let accounts: Int
    }

    /// Reads every patient, worker and account through `keys` (any of its keys opens
    /// them) and writes each back sealed under the current key.
    public static func reseal(
        health: any HealthStore & ClinicalRegistry, accounts: any AccountRecords & DeviceTokenRecords, keys: DataKeyRing
    ) async throws -> Report {
        let registry = SealingHealthStore(health, keys: keys)
        let patients = try await registry.patients(in: nil)
        for patient in patients { try await registry.save(patient) }
        let workers = try await registry.workers(in: nil)
        for worker in workers { try await registry.save(worker) }
        let records = SealingAccountRecords(accounts, keys: keys)
        let people = try await records.accounts(role: nil)
        for account in people { try await records.update(account) }
        return Report(patients: patients.count, workers: workers.count, accounts: people.count)
    }

    /// The accounts and device tokens kept in a data directory's `monitoring.sqlite`.
    public static func accountRecords(in database: MonitoringDatabase) -> any AccountRecords & DeviceTokenRecords {
        SQLiteAccountRecords(writer: database.writer)
    }
}
