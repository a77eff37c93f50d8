import Foundation
import Hummingbird
import SADEACL
import SADECore

/// One of the server's agent platforms as `GET /platforms` lists it.
struct PlatformView: ResponseEncodable {
    /// `monitoring` or `issues`: how the API names it.
    let id: String
    /// The platform's own name (agents are `name@<this>`).
    let name: String
    /// What runs on it.
    let description: String
    /// Its agents on this node.
    let agents: Int
}

/// An agent as `GET /platforms/{id}/agents` lists it: state and counters.
struct AgentSummaryView: ResponseEncodable {
    let name: String
    let identifier: String
    let state: AgentState
    let goals: Int
    let intentions: Int
    let behaviours: Int
    let mailboxDepth: Int
    let messagesSent: Int
    let messagesReceived: Int

    init(_ snapshot: AgentSnapshot) {
        name = snapshot.name
        identifier = snapshot.identifier
        state = snapshot.state
        goals = snapshot.goals.count
        intentions = snapshot.goals.count { $0.isIntended }
        behaviours = snapshot.behaviours.count
        mailboxDepth = snapshot.mailboxDepth
        messagesSent = snapshot.messagesSent
        messagesReceived = snapshot.messagesReceived
    }
}

extension AgentSnapshot: ResponseEncodable {}

/// An ACL message as the sniffer and the message form show it: its parameters, and the
/// whole message in FIPA's string form.
struct ACLMessageView: Encodable, Sendable {
    /// When the server saw it.
    let at: Date
    let sender: String?
    let receivers: [String]
    let performative: String
    let conversationId: String?
    let `protocol`: String?
    let inReplyTo: String?
    let replyWith: String?
    let ontology: String?
    let language: String?
    let content: String
    /// The message in the FIPA ACL string form (fipa00070).
    let fipa: String

    init(_ message: ACLMessage, at: Date) {
        self.at = at
        sender = message.sender?.name
        receivers = message.receivers.map(\.name)
        performative = message.performative.rawValue
        conversationId = message.conversationID
        `protocol` = message.interactionProtocol
        inReplyTo = message.inReplyTo
        replyWith = message.replyWith
        ontology = message.ontology
        language = message.language
        content = message.content ?? ""
        fipa = (try? ACLStringCodec().encode(message) as String) ?? "(\(message.performative.rawValue))"
    }
}

/// An ``AgentEvent`` on the agent's live stream: its SSE name and a JSON object with
/// the time the server saw it.
struct AgentEventView: Encodable, Sendable {
    let event: AgentEvent
    let at: Date

    /// The SSE `event:` name.
    var name: String {
        switch event {
        case .stateChanged: "state"
        case .beliefChanged: "belief"
        case .goalStatusChanged: "goal"
        case .planStatusChanged: "plan"
        case .messageReceived: "message"
        case .failed: "failed"
        case .behaviourFinished: "behaviour"
        case .reasoned: "reasoned"
        }
    }

    private struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        var fields = encoder.container(keyedBy: Key.self)
        func put(_ value: some Encodable, _ key: String) throws { try fields.encode(value, forKey: Key(stringValue: key)) }
        try put(at, "at")
        switch event {
        case .stateChanged(let state):
            try put(state, "state")
        case .beliefChanged(let belief):
            try put(belief, "belief")
        case .goalStatusChanged(let goal, let status):
            try put(goal, "goal")
            try put(status, "status")
        case .planStatusChanged(let goal, let plan, let status):
            try put(goal, "goal")
            try put(plan, "plan")
            try put(status, "status")
        case .messageReceived(let message):
            try put(ACLMessageView(message, at: at), "message")
        case .failed(let activity, let reason):
            try put(activity, "activity")
            try put(reason, "reason")
        case .behaviourFinished(let behaviour):
            try put(behaviour, "behaviour")
        case .reasoned(let record):
            try put(record.trigger, "trigger")
            try put(record.options, "options")
            try put(record.chosen, "chosen")
            try put(record.notChosen, "notChosen")
            try put(record.selected, "selected")
            try put(record.withoutPlan, "withoutPlan")
            try put(record.strategies, "strategies")
        }
    }
}
