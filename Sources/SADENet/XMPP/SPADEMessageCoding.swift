import Foundation
import SADEACL

/// FIPA messages as SPADE 4 writes them on XMPP (`spade/message.py`): a `chat` message
/// whose body is the content, and a XEP-0004 data form titled `spade:x:metadata` with one
/// text field per parameter (`performative`, `ontology`, `language`, `protocol`,
/// `reply-with`, `in-reply-to`, `reply-by`, `encoding`, user-defined `X-…`) and the
/// conversation id in the field `_thread_node`. The `<thread>` element carries it too,
/// for XMPP clients that are not SPADE.
public enum SPADEMessageCoding {
    /// The data form's title SPADE looks for.
    public static let metadataTitle = "spade:x:metadata"
    static let dataForms = "jabber:x:data"

    /// Why a stanza is not a FIPA message we can take.
    public enum DecodingError: Error, Hashable, Sendable, CustomStringConvertible {
        /// Not a `<message>`, or one without a sender.
        case notAMessage(String)
        /// The `performative` metadata names no FIPA performative.
        case unknownPerformative(String)

        public var description: String {
            switch self {
            case .notAMessage(let why): "not a FIPA message: \(why)"
            case .unknownPerformative(let name): "unknown performative '\(name.prefix(40))'"
            }
        }
    }

    /// The `<message>` carrying `message` to the JID `to`.
    public static func stanza(for message: ACLMessage, to jid: String, id: String? = nil) -> XMPPElement {
        var stanza = XMPPElement("message", namespace: "jabber:client", attributes: ["to": jid, "type": "chat"])
        stanza[attribute: "id"] = id
        stanza.append(XMPPElement("body", namespace: "jabber:client", text: message.content ?? ""))
        var metadata: [(String, String)] = [("performative", message.performative.rawValue)]
        let optional: [(String, String?)] = [
            ("ontology", message.ontology), ("language", message.language), ("protocol", message.interactionProtocol),
            ("reply-with", message.replyWith), ("in-reply-to", message.inReplyTo), ("encoding", message.encoding),
            ("reply-by", message.replyBy.map { $0.formatted(Self.timestamp) }),
        ]
        metadata += optional.compactMap { key, value in value.map { (key, $0) } }
        metadata += message.userDefined.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        if let conversation = message.conversationID { metadata.append(("_thread_node", conversation)) }
        var form = XMPPElement("x", namespace: dataForms, attributes: ["type": "form"])
        form.append(XMPPElement("title", namespace: dataForms, text: metadataTitle))
        for (key, value) in metadata {
            form.append(
                XMPPElement(
                    "field", namespace: dataForms, attributes: ["var": key, "type": "text-single"],
                    children: [.element(XMPPElement("value", namespace: dataForms, text: value))]))
        }
        stanza.append(form)
        if let conversation = message.conversationID { stanza.append(XMPPElement("thread", namespace: "jabber:client", text: conversation)) }
        return stanza
    }

    /// The FIPA message in a `<message>` stanza to `receiver`; its sender is named by
    /// the bare JID, with the full one (`xmpp://user@domain/resource`) as address, so
    /// that replies reach the very session that wrote, as XMPP clients do, whether or
    /// not it announced its presence. A message with no metadata (a person's chat
    /// client, say) is an `inform`.
    public static func message(from stanza: XMPPElement, receiver: AgentIdentifier) throws(DecodingError) -> ACLMessage {
        guard stanza.name == "message", stanza.namespace == "jabber:client" else { throw .notAMessage("<\(stanza.name)>") }
        guard let from = stanza[attribute: "from"], !from.isEmpty else { throw .notAMessage("no sender") }
        let bare = bareJID(from)
        var metadata: [String: String] = [:]
        for form in stanza.children("x", namespace: dataForms) where form.child("title")?.text == metadataTitle {
            for field in form.children("field") {
                guard let key = field[attribute: "var"], let value = field.child("value")?.text else { continue }
                metadata[key] = value
            }
        }
        let performativeName = metadata.removeValue(forKey: "performative") ?? "inform"
        guard let performative = Performative(rawValue: performativeName.lowercased()) else { throw .unknownPerformative(performativeName) }
        let conversation = metadata.removeValue(forKey: "_thread_node") ?? stanza.child("thread")?.text
        var message = ACLMessage(
            performative, sender: AgentIdentifier(name: bare, addresses: ["xmpp://\(from)"]), receivers: [receiver],
            content: stanza.child("body")?.text, language: metadata.removeValue(forKey: "language"),
            encoding: metadata.removeValue(forKey: "encoding"), ontology: metadata.removeValue(forKey: "ontology"),
            interactionProtocol: metadata.removeValue(forKey: "protocol"), conversationID: conversation,
            replyWith: metadata.removeValue(forKey: "reply-with"), inReplyTo: metadata.removeValue(forKey: "in-reply-to"))
        if let replyBy = metadata.removeValue(forKey: "reply-by") { message.replyBy = try? Self.timestamp.parse(replyBy) }
        message.userDefined = metadata
        return message
    }

    /// `user@domain` of `user@domain/resource`.
    public static func bareJID(_ jid: String) -> String {
        String(jid.split(separator: "/", maxSplits: 1).first ?? Substring(jid))
    }

    private static let timestamp = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
}
