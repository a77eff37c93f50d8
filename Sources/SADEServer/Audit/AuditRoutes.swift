import Foundation
import Hummingbird
import SADEHealth
import SADEMonitoring

/// An audit entry as the API shows it.
struct AuditEntryView: ResponseEncodable {
    let sequence: Int64
    let at: Date
    let actor: String?
    let role: UserRole?
    let action: AuditAction
    let patient: String?
    let target: String
    let status: Int
    let address: String?
    let detail: String?
    let previousHash: String
    let hash: String

    init(_ entry: AuditEntry) {
        let event = entry.event
        (sequence, at, actor, role, action) = (entry.sequence, event.at, event.actor, event.role, event.action)
        (patient, target, status, address, detail) = (event.patient?.rawValue, event.target, event.status, event.address, event.detail)
        (previousHash, hash) = (entry.previousHash, entry.hash)
    }
}

/// A page of audit entries, newest first; `next` is the `before` of the following page.
struct AuditPage: ResponseEncodable {
    let entries: [AuditEntryView]
    let next: Int64?
}

/// What a check of the whole chain found.
struct AuditVerificationView: ResponseEncodable {
    let intact: Bool
    let entries: Int
    let headSequence: Int64
    let firstBroken: Int64?
    let reason: String?
}

extension MonitoringServer {
    /// The audit trail, admins only: `GET /audit` lists entries newest first (`actor`,
    /// `patient`, `action`, `since`, `until`, `before`, `limit` up to 500), `GET
    /// /audit/verification` checks the whole chain as `sade audit verify` does.
    func addAuditRoutes(to api: RouterGroup<MonitoringRequestContext>) {
        api.get("audit") { request, context in
            _ = try context.requireAdmin()
            var query = try Self.auditQuery(request.uri.queryParameters)
            query.limit += 1  // one more than shown: whether there is a next page
            let found = try await system.audit.entries(query)
            let entries = found.prefix(query.limit - 1)
            let next = found.count == query.limit ? entries.last?.sequence : nil
            return AuditPage(entries: entries.map(AuditEntryView.init), next: next)
        }

        api.get("audit/verification") { _, context in
            _ = try context.requireAdmin()
            let verification = try await system.audit.verify()
            return AuditVerificationView(
                intact: verification.firstBreak == nil, entries: verification.entries, headSequence: verification.head.sequence,
                firstBroken: verification.firstBreak?.sequence, reason: verification.firstBreak?.reason)
        }
    }

    /// The largest page of `GET /audit`.
    static let maximumAuditPage = 500

    static func auditQuery(_ parameters: Parameters) throws -> AuditQuery {
        var query = AuditQuery()
        func text(_ name: String) throws -> String? {
            guard let value = parameters[Substring(name)] else { return nil }
            guard !value.isEmpty, value.count <= 200 else {
                throw APIError.invalid("\(name): must be 1 to 200 characters", code: "invalid-parameter")
            }
            return String(value)
        }
        query.actor = try text("actor")
        query.patient = try text("patient").map(PatientID.init(rawValue:))
        if let action = try text("action") {
            guard let parsed = AuditAction(rawValue: action) else {
                let actions = AuditAction.allCases.map(\.rawValue).joined(separator: ", ")
                throw APIError.invalid("action: '\(action)' is not one of \(actions)", code: "invalid-parameter")
            }
            query.action = parsed
        }
        query.since = try ObservationQuery.date(parameters["since"], name: "since")
        query.until = try ObservationQuery.date(parameters["until"], name: "until")
        if let text = parameters["before"] {
            guard let before = Int64(text), before >= 1 else {
                throw APIError.invalid("before: must be a sequence number (1 or more)", code: "invalid-parameter")
            }
            query.before = before
        }
        if let text = parameters["limit"] {
            guard let limit = Int(text), (1...maximumAuditPage).contains(limit) else {
                throw APIError.invalid("limit: must be a whole number from 1 to \(maximumAuditPage)", code: "invalid-parameter")
            }
            query.limit = limit
        }
        return query
    }
}
