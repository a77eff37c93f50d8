import SADEHealth
import SADEMonitoring
import Synchronization

/// What a request's audit entry says beyond what ``AuditMiddleware`` sees for itself:
/// the caller (known only once ``AuthMiddleware`` has run, further in) and what a route
/// knows better — the username a login tried, a patient not named in the path, the
/// kind of act, a detail. Shared by every copy of the request's context.
final class AuditNote: Sendable {
    struct Contents {
        var caller: UserAccount?
        var actor: String?
        var action: AuditAction?
        var patient: PatientID?
        var detail: String?
    }

    private let contents = Mutex(Contents())

    /// What was noted.
    var current: Contents { contents.withLock { $0 } }

    /// Notes the authenticated caller.
    func caller(_ account: UserAccount) {
        contents.withLock { $0.caller = account }
    }

    /// Notes what the route knows: only what is given replaces what was noted.
    func note(actor: String? = nil, action: AuditAction? = nil, patient: PatientID? = nil, detail: String? = nil) {
        contents.withLock { contents in
            if let actor { contents.actor = actor }
            if let action { contents.action = action }
            if let patient { contents.patient = patient }
            if let detail { contents.detail = detail }
        }
    }
}
