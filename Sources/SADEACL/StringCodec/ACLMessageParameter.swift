/// The message parameters of fipa00061, as the string form names them.
enum ACLMessageParameter: Int, CaseIterable {
    case sender, receiver, replyTo, content, language, encoding, ontology, `protocol`, conversationID,
        replyWith, inReplyTo, replyBy

    /// The name with its colon, lowercase: `:reply-to`.
    var name: StaticString {
        switch self {
        case .sender: ":sender"
        case .receiver: ":receiver"
        case .replyTo: ":reply-to"
        case .content: ":content"
        case .language: ":language"
        case .encoding: ":encoding"
        case .ontology: ":ontology"
        case .protocol: ":protocol"
        case .conversationID: ":conversation-id"
        case .replyWith: ":reply-with"
        case .inReplyTo: ":in-reply-to"
        case .replyBy: ":reply-by"
        }
    }

    /// The parameter named by the word `input[start..<end]`, ignoring ASCII case.
    static func named(_ input: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> ACLMessageParameter? {
        // Dispatch on the length first: only :content and :language share one.
        switch end - start {
        case 7: return ACLSyntax.equalsIgnoringCase(input, start, end, ":sender") ? .sender : nil
        case 9:
            if ACLSyntax.equalsIgnoringCase(input, start, end, ":receiver") { return .receiver }
            if ACLSyntax.equalsIgnoringCase(input, start, end, ":reply-to") { return .replyTo }
            if ACLSyntax.equalsIgnoringCase(input, start, end, ":encoding") { return .encoding }
            if ACLSyntax.equalsIgnoringCase(input, start, end, ":ontology") { return .ontology }
            if ACLSyntax.equalsIgnoringCase(input, start, end, ":protocol") { return .protocol }
            if ACLSyntax.equalsIgnoringCase(input, start, end, ":reply-by") { return .replyBy }
            if ACLSyntax.equalsIgnoringCase(input, start, end, ":language") { return .language }
            return nil
        case 8: return ACLSyntax.equalsIgnoringCase(input, start, end, ":content") ? .content : nil
        case 16: return ACLSyntax.equalsIgnoringCase(input, start, end, ":conversation-id") ? .conversationID : nil
        case 11: return ACLSyntax.equalsIgnoringCase(input, start, end, ":reply-with") ? .replyWith : nil
        case 12: return ACLSyntax.equalsIgnoringCase(input, start, end, ":in-reply-to") ? .inReplyTo : nil
        default: return nil
        }
    }
}

extension Performative {
    /// The performative named by the word `input[start..<end]`, ignoring ASCII case.
    static func named(_ input: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Performative? {
        for (name, performative) in table where ACLSyntax.equalsIgnoringCase(input, start, end, name) {
            return performative
        }
        return nil
    }

    private static let table: [(StaticString, Performative)] = [
        ("inform", .inform), ("request", .request), ("agree", .agree), ("refuse", .refuse),
        ("failure", .failure), ("cfp", .cfp), ("propose", .propose), ("accept-proposal", .acceptProposal),
        ("reject-proposal", .rejectProposal), ("query-if", .queryIf), ("query-ref", .queryRef),
        ("not-understood", .notUnderstood), ("subscribe", .subscribe), ("cancel", .cancel),
        ("confirm", .confirm), ("disconfirm", .disconfirm), ("inform-if", .informIf), ("inform-ref", .informRef),
        ("propagate", .propagate), ("proxy", .proxy), ("request-when", .requestWhen),
        ("request-whenever", .requestWhenever),
    ]
}
