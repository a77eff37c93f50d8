import SADEHome
import SADEMonitoring

/// Who may see and command which flats: admins every flat, carers the flats that list
/// them, a resident (patient account) and a home gateway (device token of the resident)
/// their own flat, a relative the flats of the patients linked to them (read only).
enum HomeAccess {
    /// The flats `account` may see.
    static func flats(of account: UserAccount, among flats: [Flat]) -> [Flat] {
        flats.filter { may(account, see: $0) }
    }

    /// Whether `account` may see `flat`.
    static func may(_ account: UserAccount, see flat: Flat) -> Bool {
        switch account.role {
        case .admin: return true
        case .patient, .device: return account.patientID != nil && account.patientID == flat.resident
        case .relative: return flat.resident.map(account.relativeOf.contains) ?? false
        case .doctor, .nurse: return flat.carers.contains(account.username)
        }
    }

    /// Whether `account` may confirm the messages of `flat` (and command its devices): a
    /// person who may see it, but not a gateway or a relative (they only look).
    static func may(_ account: UserAccount, confirmMessagesOf flat: Flat) -> Bool {
        account.role != .device && account.role != .relative && may(account, see: flat)
    }

    /// Whether `account` may post device events for `flat`: the flat's gateway (a device
    /// token of its resident) or an admin.
    static func may(_ account: UserAccount, postEventsTo flat: Flat) -> Bool {
        account.role == .admin || (account.role == .device && account.patientID != nil && account.patientID == flat.resident)
    }
}
