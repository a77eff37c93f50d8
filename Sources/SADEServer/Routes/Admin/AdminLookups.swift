import Foundation
import Hummingbird
import SADEHealth
import SADEMonitoring

extension MonitoringRequestContext {
    /// The caller if they are hospital staff (an admin, a doctor or a nurse); 401 or 403 otherwise.
    public func requireStaff() throws -> UserAccount {
        let caller = try requireCaller()
        guard caller.role == .admin || caller.role.isCareWorker else { throw APIError.forbidden("only hospital staff may see this") }
        return caller
    }
}

/// The records the administration routes look up by the identifier in their path:
/// each is found or answered 404.
extension MonitoringServer {
    /// The account named by the path parameter `id`.
    func registeredAccount(_ context: MonitoringRequestContext) async throws -> UserAccount {
        let id = try context.pathParameter("id")
        guard let account = try await system.accounts.account(id: id) else { throw APIError.notFound("no user \(id)") }
        return account
    }

    /// The health-care worker with identifier `id`.
    func registeredWorker(_ id: StaffID) async throws -> HealthCareWorker {
        try HealthText.validateIdentifier(id, field: "id")
        guard let worker = try await system.health.worker(id) else { throw APIError.notFound("no health-care worker \(id)") }
        return worker
    }

    /// The hospital with identifier `id`.
    func registeredHospital(_ id: HospitalID) async throws -> Hospital {
        guard let hospital = try await system.health.hospitals().first(where: { $0.id == id }) else {
            throw APIError.notFound("no hospital \(id)")
        }
        return hospital
    }

    /// The sector with identifier `id`.
    func registeredSector(_ id: SectorID) async throws -> HospitalSector {
        guard let sector = try await system.health.sectors(of: nil).first(where: { $0.id == id }) else {
            throw APIError.notFound("no sector \(id)")
        }
        return sector
    }
}

/// Checks of request fields shared by the administration routes.
enum AdminInput {
    /// `text` trimmed, or a 400 naming `field` when it is blank or longer than `limit`.
    static func requiredText(_ text: String?, field: String, limit: Int = 200) throws -> String {
        let trimmed = text?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        guard !trimmed.isEmpty else { throw APIError.invalid("\(field): is missing or blank", code: "invalid-field") }
        guard trimmed.count <= limit else { throw APIError.invalid("\(field): is longer than \(limit) characters", code: "invalid-field") }
        return trimmed
    }

    /// `text` trimmed, `nil` when that leaves nothing (an empty field clears a value).
    static func optionalText(_ text: String?) -> String? {
        let trimmed = text?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        return trimmed.isEmpty ? nil : trimmed
    }

    /// `identifier` if it is a usable record identifier (ASCII letters, digits, `.`, `_`,
    /// `-`; at most `limit` characters), else a 400 naming `field`. ASCII only, so that
    /// an identifier reads the same in a URL path as in the record.
    static func identifier(_ identifier: String?, field: String, limit: Int = 64) throws -> String {
        try RecordIdentifier.validated(identifier, field: field, limit: limit)
    }

    /// E-mail addresses, each checked, or a 400 naming the one at fault.
    static func emailAddresses(_ addresses: [String], field: String) throws -> [String] {
        try addresses.enumerated().map { index, address in
            let trimmed = address.trimmingCharacters(in: .whitespaces)
            guard isEmailAddress(trimmed) else {
                throw APIError.invalid("\(field)[\(index)]: is not an e-mail address", code: "invalid-field")
            }
            return trimmed
        }
    }

    /// Whether `text` is an e-mail address the mail goes out to: an RFC 5322 dot-atom
    /// local part, `@`, a domain of two or more letter-digit-hyphen labels; ASCII only (the
    /// SMTP client speaks no SMTPUTF8), at most 254 characters.
    static func isEmailAddress(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, text.utf8.count <= 254 else { return false }
        let atext = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+-/=?^_`{|}~".unicodeScalars)
        let local = parts[0].split(separator: ".", omittingEmptySubsequences: false)
        let domain = parts[1].split(separator: ".", omittingEmptySubsequences: false)
        return local.allSatisfy { !$0.isEmpty && $0.unicodeScalars.allSatisfy(atext.contains) } && domain.count >= 2
            && domain.allSatisfy { label in
                !label.isEmpty && label.first != "-" && label.last != "-"
                    && label.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-") }
            }
    }

    /// The body's bytes, up to `limit` (413 beyond it); empty when there is no body.
    static func bodyData(of request: Request, context: MonitoringRequestContext) async throws -> Data {
        Data(buffer: try await APIRequestDecoder.collect(request, limit: context.maxUploadSize, channel: context.channel))
    }

    /// An empty 204 answer.
    static func noContent() -> Response { Response(status: .noContent) }
}
