extension ACLWriter {
    /// Appends `message` in the FIPA string form, on one line, parameters in the order of
    /// fipa00061 and user-defined ones last, sorted by name:
    /// `(inform :sender (agent-identifier :name a) :receiver (set …) :content "…" …)`.
    ///
    /// `lenient` writes what it can instead of throwing (for descriptions): a bad
    /// user-defined name as it is, an out-of-range `reply-by` as quoted ISO 8601 text.
    mutating func appendMessage(_ message: ACLMessage, lenient: Bool = false) throws(ACLEncodingError) {
        bytes.append(UInt8(ascii: "("))
        appendRaw(message.performative.rawValue)
        if let sender = message.sender {
            append(" :sender ")
            appendAgent(sender)
        }
        if !message.receivers.isEmpty {
            append(" :receiver ")
            appendAgentSet(message.receivers)
        }
        if !message.replyTo.isEmpty {
            append(" :reply-to ")
            appendAgentSet(message.replyTo)
        }
        if let content = message.content {
            append(" :content ")
            appendQuoted(content)
        }
        appendParameter(" :language ", message.language)
        appendParameter(" :encoding ", message.encoding)
        appendParameter(" :ontology ", message.ontology)
        appendParameter(" :protocol ", message.interactionProtocol)
        appendParameter(" :conversation-id ", message.conversationID)
        appendParameter(" :reply-with ", message.replyWith)
        appendParameter(" :in-reply-to ", message.inReplyTo)
        if let replyBy = message.replyBy {
            append(" :reply-by ")
            let timestamp = Timestamp(replyBy)
            do {
                try timestamp.appendFIPA(to: &bytes)
            } catch {
                guard lenient else { throw error }
                appendQuoted(timestamp.iso8601)
            }
        }
        if !message.userDefined.isEmpty {
            let parameters =
                message.userDefined.count == 1
                ? Array(message.userDefined) : message.userDefined.sorted { $0.key < $1.key }
            for (name, value) in parameters {
                guard lenient || Self.isUserDefinedName(name) else { throw .badUserDefinedParameterName(name) }
                append(" :")
                appendRaw(name)
                bytes.append(UInt8(ascii: " "))
                appendValue(value)
            }
        }
        bytes.append(UInt8(ascii: ")"))
    }

    private mutating func appendParameter(_ name: StaticString, _ value: String?) {
        guard let value else { return }
        append(name)
        appendValue(value)
    }

    private mutating func appendAgentSet(_ agents: [AgentIdentifier]) {
        append("(set")
        for agent in agents {
            bytes.append(UInt8(ascii: " "))
            appendAgent(agent)
        }
        bytes.append(UInt8(ascii: ")"))
    }

    /// Whether `name` can be written as `:name`: `X-`/`x-` and more, all of it word
    /// characters (no white space, control characters or parentheses).
    static func isUserDefinedName(_ name: String) -> Bool {
        ACLMessage.isUserDefined(name) && name.utf8.allSatisfy(ACLSyntax.isWordByte)
    }
}
