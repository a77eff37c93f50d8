import SADEACL

/// The behaviour of the platform's `ams` and `df` agents: `fipa-agent-management`
/// requests over ACL (fipa00023).
enum AgentManagementService {
    /// The AMS's reaction to every message.
    static let amsHandler = MessageHandler { agent, message in
        answer(message, from: agent)
    }

    /// The DF's reaction to every message.
    static let dfHandler = MessageHandler { agent, message in
        answer(message, from: agent)
    }

    private static func answer(_ message: ACLMessage, from agent: isolated Agent) {
        let isReply = message.inReplyTo != nil || [.failure, .notUnderstood, .inform, .agree, .refuse].contains(message.performative)
        guard !isReply, message.sender != nil else {
            agent.logger.notice("message to the platform ignored", metadata: ["performative": "\(message.performative)"])
            return
        }
        agent.send(message.makeReply(.notUnderstood, content: "(platform-service-unavailable)"))
    }
}
