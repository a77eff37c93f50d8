import Foundation
import SADEACL
import SADETestTiming
import Testing

@testable import SADENet

@Suite("SASL SCRAM-SHA-1 and FIPA messages as SPADE writes them", .timeLimit(.minutes(5)), .timed)
struct SCRAMAndSPADECodingTests {
    @Test("the client side of RFC 5802's example exchange, byte for byte; a server that does not know the password is caught")
    func scramExample() throws {
        var scram = SCRAMClient(username: "user", password: "pencil", nonce: "fyko+d2lbbFgONRv9qkxdawL")
        #expect(scram.firstMessage == "n,,n=user,r=fyko+d2lbbFgONRv9qkxdawL")
        let final = try scram.finalMessage(answering: "r=fyko+d2lbbFgONRv9qkxdawL3rfcNHYJY1ZVvWVs7j,s=QSXCR+Q6sek8bf92,i=4096")
        #expect(final == "c=biws,r=fyko+d2lbbFgONRv9qkxdawL3rfcNHYJY1ZVvWVs7j,p=v0X8v3Bz2T0CJGbJQyF0X+HI4Ts=")
        try scram.verify(serverFinal: "v=rmF9pqV8S7suAoZWja4dJRkFsKQ=")
        #expect(throws: SCRAMClient.Failure.serverNotVerified) { try scram.verify(serverFinal: "v=AAAApqV8S7suAoZWja4dJRkFsKQ=") }

        var other = SCRAMClient(username: "user", password: "pencil", nonce: "abc")
        #expect(throws: SCRAMClient.Failure.nonceMismatch) { try other.finalMessage(answering: "r=xyz123,s=QSXCR+Q6sek8bf92,i=4096") }
        #expect(throws: SCRAMClient.Failure.self) { try other.finalMessage(answering: "r=abc123,s=QSXCR+Q6sek8bf92,i=0") }
        #expect(throws: SCRAMClient.Failure.self) { try other.finalMessage(answering: "garbage") }
    }

    @Test("a FIPA message goes out as SPADE's data form and comes back the same")
    func roundTrip() throws {
        var message = ACLMessage(
            .cfp, sender: "nurse@ward", receivers: ["alice@localhost"], content: "(fix (pump 3))", language: "fipa-sl0",
            ontology: "issues", interactionProtocol: "fipa-contract-net", conversationID: "c-1", replyWith: "r-1",
            replyBy: Date(timeIntervalSince1970: 1_800_000_000.25), userDefined: ["X-ward": "7"])
        message.encoding = "utf-8"
        var stanza = SPADEMessageCoding.stanza(for: message, to: "alice@localhost")
        #expect(stanza[attribute: "type"] == "chat" && stanza[attribute: "to"] == "alice@localhost")
        let form = try #require(stanza.child("x", namespace: "jabber:x:data"))
        #expect(form.child("title")?.text == "spade:x:metadata")
        let fields = Dictionary(uniqueKeysWithValues: form.children("field").map { ($0[attribute: "var"] ?? "", $0.child("value")?.text ?? "") })
        #expect(fields["performative"] == "cfp" && fields["_thread_node"] == "c-1" && fields["ontology"] == "issues")
        #expect(fields["protocol"] == "fipa-contract-net" && fields["reply-with"] == "r-1" && fields["X-ward"] == "7")

        stanza[attribute: "from"] = "nurse@localhost/phone"
        let back = try SPADEMessageCoding.message(from: stanza, receiver: "alice@there")
        #expect(back.performative == .cfp && back.content == "(fix (pump 3))" && back.conversationID == "c-1")
        #expect(back.language == "fipa-sl0" && back.encoding == "utf-8" && back.interactionProtocol == "fipa-contract-net")
        #expect(back.replyWith == "r-1" && back.replyBy == message.replyBy && back.userDefined == ["X-ward": "7"])
        #expect(back.sender == AgentIdentifier(name: "nurse@localhost", addresses: ["xmpp://nurse@localhost/phone"]))
    }

    @Test("a plain chat message is an inform; an unknown performative and a stanza without sender are refused")
    func otherMessages() throws {
        var chat = XMPPElement("message", namespace: "jabber:client", attributes: ["from": "bob@localhost/x", "type": "chat"])
        chat.append(XMPPElement("body", namespace: "jabber:client", text: "hello"))
        chat.append(XMPPElement("thread", namespace: "jabber:client", text: "t-9"))
        let message = try SPADEMessageCoding.message(from: chat, receiver: "echo")
        #expect(message.performative == .inform && message.content == "hello" && message.conversationID == "t-9")

        var form = XMPPElement("x", namespace: "jabber:x:data", attributes: ["type": "form"])
        form.append(XMPPElement("title", namespace: "jabber:x:data", text: SPADEMessageCoding.metadataTitle))
        form.append(XMPPElement(
            "field", namespace: "jabber:x:data", attributes: ["var": "performative"],
            children: [.element(XMPPElement("value", namespace: "jabber:x:data", text: "shout"))]))
        let odd = XMPPElement("message", namespace: "jabber:client", attributes: ["from": "bob@localhost"], children: [.element(form)])
        #expect(throws: SPADEMessageCoding.DecodingError.unknownPerformative("shout")) { try SPADEMessageCoding.message(from: odd, receiver: "echo") }
        chat[attribute: "from"] = nil
        #expect(throws: SPADEMessageCoding.DecodingError.self) { try SPADEMessageCoding.message(from: chat, receiver: "echo") }
    }
}
