import Foundation
import SADEHealth

/// The wearable thesis's application on the monitoring system: its users are
/// ``AccountStore`` accounts (a thesis "User" is a `patient` with a patient record of
/// its own, a thesis "Admin" an `admin`), its data items become samples of the
/// owner's patient record (``WearableSampleMapping``), and its projects group accounts.
public struct WearableFacade: Sendable {
    /// Projects and data items.
    public let store: WearableStore
    /// The accounts users log in with.
    public let accounts: AccountStore
    /// Where patient records and samples go.
    public let health: any HealthStore & ClinicalRegistry

    /// The facade over the system's stores.
    public init(store: WearableStore, accounts: AccountStore, health: any HealthStore & ClinicalRegistry) {
        self.store = store
        self.accounts = accounts
        self.health = health
    }

    // MARK: Users

    /// Registers a thesis user: a `patient` account in "No Project" with a new patient
    /// record, `wearable-<username>` (a suffix is added if that record exists already,
    /// so that nobody inherits someone else's samples).
    ///
    /// - Throws: ``MonitoringError/invalid(field:reason:)`` for a bad username, password,
    ///   name or location; ``MonitoringError/conflict(_:)`` when the username is taken.
    public func register(username: String, password: String, name: String?, location: String?, at date: Date) async throws(MonitoringError) -> UserAccount {
        let trimmedName = name?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        let location = location?.trimmingCharacters(in: .whitespacesAndNewlines)
        guard (location?.count ?? 0) <= 200 else { throw .invalid(field: "location", reason: "must be at most 200 characters") }
        do { try HealthText.validateFreeText(location, field: "location") } catch { throw MonitoringError(error) }
        var account = UserAccount(
            username: username, name: trimmedName.isEmpty ? username : trimmedName, role: .patient,
            projectID: WearableProject.noProjectID, location: location?.isEmpty == true ? nil : location, createdAt: date)
        var patientID = PatientID(rawValue: "wearable-\(username.lowercased())")
        if try await call({ () async throws(HealthError) in try await health.patient(patientID) }) != nil {
            patientID = PatientID(rawValue: "\(patientID.rawValue)-\(account.id.prefix(8).lowercased())")
        }
        account.patientID = patientID
        try await accounts.create(account, password: password)
        do {
            try await health.save(Patient(id: patientID, name: account.name))
        } catch {
            _ = try? await accounts.delete(account.id)
            throw MonitoringError(error)
        }
        return account
    }

    /// Moves `account` to `projectID`.
    ///
    /// - Throws: ``MonitoringError/notFound(_:)`` when there is no such project.
    public func changeProject(of account: UserAccount, to projectID: Int) async throws(MonitoringError) {
        guard try await store.project(projectID) != nil else { throw .notFound("no project \(projectID)") }
        var account = account
        account.projectID = projectID
        try await accounts.update(account)
    }

    /// Moves the account named `username` to `projectID`.
    public func assign(username: String, to projectID: Int) async throws(MonitoringError) {
        guard let account = try await accounts.account(username: username) else { throw .notFound("no user \(username)") }
        try await changeProject(of: account, to: projectID)
    }

    // MARK: Data items

    /// Stores what `account`'s device sent, received at `date`, and saves its samples in
    /// the account's patient record (if it has one); the samples' identifiers are in
    /// the returned item. Nothing is kept when the samples cannot be saved.
    public func record(_ reading: WearableReading, by account: UserAccount, at date: Date) async throws(MonitoringError) -> WearableDataItem {
        guard account.role != .device else { throw .forbidden("data items are sent with a user's login token, not a device token") }
        try reading.validate()
        let source = "wearable:\(account.username)"
        let (item, samples) = try await store.add(reading, ownerID: account.id, at: date) { item, previous in
            guard let patient = account.patientID else { return [] }
            return WearableSampleMapping.samples(of: item, previous: previous, patient: patient, source: source)
        }
        guard !samples.isEmpty else { return item }
        do {
            try await health.save(samples, as: .system)
        } catch {
            _ = try? await store.delete(item.id)
            throw MonitoringError(error)
        }
        return item
    }

    /// The data item `id` if `account` owns it or is an admin, with its owner.
    ///
    /// - Throws: ``MonitoringError/notFound(_:)`` or ``MonitoringError/forbidden(_:)``.
    public func item(_ id: Int64, for account: UserAccount) async throws(MonitoringError) -> (item: WearableDataItem, owner: UserAccount?) {
        guard let item = try await store.item(id) else { throw .notFound("no data item \(id)") }
        guard item.ownerID == account.id || account.role == .admin else { throw .forbidden("data item \(id) is not yours") }
        let owner = item.ownerID == account.id ? account : try await accounts.account(id: item.ownerID)
        return (item, owner)
    }

    /// Deletes a data item of `account` (any item for an admin) and its samples.
    public func delete(_ id: Int64, by account: UserAccount) async throws(MonitoringError) {
        let (item, _) = try await item(id, for: account)
        if !item.sampleIDs.isEmpty {
            _ = try await call { () async throws(HealthError) in try await health.delete(item.sampleIDs, as: .system) }
        }
        try await store.delete(id)
    }

    /// The data items of the accounts in `projectID`, oldest first.
    public func items(inProject projectID: Int) async throws(MonitoringError) -> [WearableDataItem] {
        guard try await store.project(projectID) != nil else { throw .notFound("no project \(projectID)") }
        let members = try await accounts.accounts().filter { $0.projectID == projectID }.map(\.id)
        return try await store.items(ownedByAnyOf: members)
    }

    /// Deletes an account and its data items (their samples stay in the patient's record);
    /// returns whether the account existed.
    @discardableResult
    public func deleteAccount(_ id: String) async throws(MonitoringError) -> Bool {
        let existed = try await accounts.delete(id)
        try await store.deleteItems(ownedBy: id)
        return existed
    }

    private func call<T>(_ body: () async throws(HealthError) -> T) async throws(MonitoringError) -> T {
        do { return try await body() } catch { throw MonitoringError(error) }
    }
}

extension MonitoringSystem {
    /// The wearable thesis's facade: its users, projects and data items.
    public var wearable: WearableFacade { WearableFacade(store: wearableStore, accounts: accounts, health: health) }
}
