import Foundation
import Hummingbird
import SADEIssueTrack
import SADEMonitoring
import SADENotification

/// A subscription as a browser's `PushSubscription.toJSON()` gives it, with the
/// device's name.
struct PushSubscriptionInput: Decodable {
    struct Keys: Decodable {
        let p256dh: String
        let auth: String
    }

    let endpoint: String
    let keys: Keys
    let device: String?
}

/// A subscription as the API lists it: never with its keys.
struct PushSubscriptionView: ResponseEncodable {
    let id: String
    let device: String
    let endpoint: String
    let createdAt: Date

    init(_ subscription: WebPushSubscription) {
        id = subscription.id
        device = subscription.device
        endpoint = subscription.endpoint
        createdAt = subscription.createdAt
    }
}

/// A button pressed on a notification: its one-time token.
struct PushActionInput: Decodable {
    let token: String
}

/// What a button did, for the notification that replaces the pressed one.
struct PushActionOutcome: ResponseEncodable {
    let action: String
    let notice: UUID
    let message: String
}

/// The server's VAPID public key, for `pushManager.subscribe({applicationServerKey})`.
struct PushKeyView: ResponseEncodable {
    let publicKey: String
}

extension MonitoringServer {
    /// Web Push: `GET /push/key` (the key browsers subscribe with; no login needed),
    /// `POST /push/subscriptions` (the caller's browser; the same endpoint again replaces
    /// it), `GET /push/subscriptions` (the caller's) and `DELETE /push/subscriptions/{id}`
    /// (the caller's own; an admin's any, e.g. of a lost phone).
    func addPushRoutes(to api: RouterGroup<MonitoringRequestContext>) {
        api.get("push/key") { _, _ in
            PushKeyView(publicKey: try pushChannel().key.publicKey)
        }

        api.post("push/subscriptions") { request, context in
            let caller = try context.requireCaller()
            guard caller.role != .device else { throw APIError.forbidden("a device gets no notifications") }
            let channel = try pushChannel()
            let input = try context.requestDecoder.decode(
                PushSubscriptionInput.self, from: try await AdminInput.bodyData(of: request, context: context))
            let device = (input.device ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            guard device.count <= 100 else { throw APIError.invalid("device: at most 100 characters", code: "invalid-subscription") }
            let subscription: WebPushSubscription
            do {
                guard input.endpoint.utf8.count <= 2048 else { throw WebPushError.endpointNotHTTPS(String(input.endpoint.prefix(60)) + "…") }
                try await channel.policy.checkOffThePool(input.endpoint)
                subscription = WebPushSubscription(
                    account: caller.username, endpoint: input.endpoint, keys: try .init(p256dh: input.keys.p256dh, auth: input.keys.auth),
                    device: device.isEmpty ? "browser" : device, createdAt: system.now())
            } catch let error as WebPushError {
                throw APIError.invalid(error.description, code: "invalid-subscription")
            }
            // The same browser may move to another account (someone else logs in on it): it
            // proves it is the same with its keys. Knowing an endpoint is not enough.
            if let existing = try await channel.subscriptions.subscription(id: subscription.id), existing.account != caller.username,
                existing.keys != subscription.keys
            {
                throw APIError.conflict("this endpoint is subscribed by another account with other keys")
            }
            try await channel.subscriptions.save(subscription)
            context.auditNote.note(action: .change, detail: "push subscription \(subscription.id) (\(subscription.device)) added")
            return EditedResponse(status: .created, response: PushSubscriptionView(subscription))
        }

        api.get("push/subscriptions") { _, context in
            let caller = try context.requireCaller()
            guard caller.role != .device else { throw APIError.forbidden("a device gets no notifications") }
            return try await pushChannel().subscriptions.subscriptions(of: caller.username).map(PushSubscriptionView.init)
        }

        api.delete("push/subscriptions/:id") { _, context in
            let caller = try context.requireCaller()
            let id = try context.pathParameter("id")
            let channel = try pushChannel()
            guard let subscription = try await channel.subscriptions.subscription(id: id) else {
                throw APIError.notFound("no push subscription \(id)")
            }
            guard subscription.account == caller.username || caller.role == .admin else {
                throw APIError.forbidden("push subscription \(id) is not yours")
            }
            try await channel.subscriptions.remove(id: id)
            context.auditNote.note(action: .change, detail: "push subscription \(id) removed")
            return AdminInput.noContent()
        }
    }

    /// `POST /push/actions`: a notification's button, answered from the lock screen. The
    /// body's one-time token (no login: it is the credential) names the notice, the
    /// account and the action; the action is done as that account, with its rights now.
    func addPushActionRoutes(to api: RouterGroup<MonitoringRequestContext>) {
        api.post("push/actions") { request, context in
            guard let tokens = system.pushActions else { throw APIError(MonitoringError.unavailable("this server sends no push notifications")) }
            let input = try context.requestDecoder.decode(PushActionInput.self, from: try await AdminInput.bodyData(of: request, context: context))
            let action: PushAction
            do throws(PushActionError) {
                action = try tokens.read(input.token, now: system.now())
            } catch {
                throw error == .used ? APIError.conflict(error.description) : APIError.unauthenticated(error.description)
            }
            guard let account = try await system.accounts.account(username: action.account) else {
                throw APIError.unauthenticated("the account \(action.account) is gone")
            }
            // A lost phone: once its owner's password is reset or sessions ended, its buttons stop working too.
            if let changed = account.credentialsChangedAt, action.issued < changed.addingTimeInterval(-1) {
                throw APIError.unauthenticated("the action token predates the account's last change of credentials: open the app to answer")
            }
            context.auditNote.caller(account)
            switch action.action {
            case "acknowledge":
                guard account.role == .admin || account.role.isCareWorker else {
                    throw APIError.forbidden("only health-care workers acknowledge alerts")
                }
                let book = try alertBook()
                var found = try await book.alert(action.notice)
                if found == nil { found = try await book.alert(forNotice: action.notice) }
                guard let alert = found else { throw APIError.notFound("no alert of notice \(action.notice)") }
                context.auditNote.note(patient: alert.patient, detail: "alert \(alert.id) acknowledged from a notification")
                guard try await system.access.mayRead(alert.patient, as: account) else {
                    throw APIError.forbidden("the alert is about a patient who is not yours")
                }
                // Spent only now: a press that failed (the alert not recorded yet, the server busy) may be tried again.
                guard tokens.spend(action, now: system.now()) else { throw APIError.conflict(PushActionError.used.description) }
                let acknowledged = try await book.acknowledge(alert.id, by: account.staffID ?? account.username)
                let title = WebPushMessage.withoutSubject(acknowledged.title, acknowledged.patient.rawValue)
                return PushActionOutcome(action: action.action, notice: action.notice, message: "Acknowledged: \(title)")
            case "confirm":
                // A home alarm: its notice names the flat; the open message it raised is confirmed, as on the messages page.
                guard let notice = try await system.outbox.notification(action.notice),
                    let flatID = notice.deduplicationKey.flatMap(PushDecoration.flat(ofHomeKey:))
                else { throw APIError.notFound("no home alarm of notice \(action.notice)") }
                let flat = try await system.home.store.flat(flatID)
                guard HomeAccess.may(account, confirmMessagesOf: flat) else { throw APIError.forbidden("you do not confirm the messages of flat \(flatID)") }
                let open = try await system.home.store.messages(flat: flatID, states: [.open], from: nil, to: nil).first { $0.notice == action.notice }
                guard let message = open else {
                    throw APIError.conflict("the message of that notification is no longer open: confirmed or expired already")
                }
                guard tokens.spend(action, now: system.now()) else { throw APIError.conflict(PushActionError.used.description) }
                let confirmed = try await system.home.confirm(message: message.id, by: account.username)
                context.auditNote.note(detail: "home message \(confirmed.id) of flat \(flatID) confirmed from a notification")
                return PushActionOutcome(action: action.action, notice: action.notice, message: "Confirmed: \(confirmed.title)")
            case "take", "decline":
                guard let office = issueTrack else { throw APIError(IssueTrackError.unavailable("this server runs without the issue track")) }
                guard let question = try await office.question(action.notice) else {
                    throw APIError.conflict(IssueTrackError.questionClosed(action.notice).description)
                }
                let decision: EmployeeDecision = action.action == "take" ? .take : .decline
                try await answer(question, decision, as: account, in: office, context: context)
                // Spent once answered (a refusal or a failover's 503 leaves it good); a second answer is refused as closed anyway.
                _ = tokens.spend(action, now: system.now())
                let said = decision == .take ? "You take issue \(question.issue.label)" : "Issue \(question.issue.label) goes to someone else"
                return PushActionOutcome(action: action.action, notice: action.notice, message: said)
            default:
                throw APIError.invalid("unknown action \(action.action)", code: "invalid-action")
            }
        }
    }

    /// The push channel; 503 when the server pushes nothing.
    func pushChannel() throws -> WebPushChannel {
        guard let push = system.push else { throw APIError(MonitoringError.unavailable("this server sends no push notifications")) }
        return push
    }
}
