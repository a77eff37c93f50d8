import SADETestTiming
import Testing

@testable import SADENet

@Suite("XMPP's XML stream: stanzas as they arrive, restricted XML refused", .timeLimit(.minutes(5)), .timed)
struct XMLStreamParserTests {
    static let header = "<?xml version='1.0'?><stream:stream xmlns='jabber:client' xmlns:stream='http://etherx.jabber.org/streams' id='s1' version='1.0'>"

    func feed(_ parts: [String], limits: XMLStreamParser.Limits = .init()) throws(XMLStreamError) -> [XMLStreamParser.Event] {
        var parser = XMLStreamParser(limits: limits)
        var events: [XMLStreamParser.Event] = []
        for part in parts { events += try parser.feed(Array(part.utf8)) }
        return events
    }

    func elements(_ events: [XMLStreamParser.Event]) -> [XMPPElement] {
        events.compactMap { if case .element(let element) = $0 { element } else { nil } }
    }

    @Test("a stanza cut anywhere comes out whole, once, with namespaces resolved and entities decoded")
    func stanzasInPieces() throws {
        let stanza = #"<message to='a@b' type="chat"><body>1 &lt; 2 &amp; &#x263A; &#65;</body><x xmlns='jabber:x:data'><field var='k'><value>v</value></field></x></message>"#
        let text = Self.header + stanza + "\n  " + stanza + "</stream:stream>"
        let bytes = Array(text.utf8)
        for cut in stride(from: 1, to: bytes.count, by: 7) {
            var parser = XMLStreamParser()
            let events = try parser.feed(bytes[..<cut]) + parser.feed(bytes[cut...])
            #expect(events.count == 4, "cut at \(cut)")
            #expect(elements(events).count == 2)
            #expect(events.last == .streamClosed)
        }
        let message = try #require(elements(try feed([text])).first)
        #expect(message.name == "message" && message.namespace == "jabber:client")
        #expect(message[attribute: "to"] == "a@b" && message[attribute: "type"] == "chat")
        #expect(message.child("body")?.text == "1 < 2 & \u{263A} A")
        let form = try #require(message.child("x", namespace: "jabber:x:data"))
        #expect(form.child("field")?.child("value")?.text == "v")
        #expect(form.child("field")?.namespace == "jabber:x:data")
    }

    @Test("a prefixed element finds its namespace; what we write reads back the same")
    func prefixesAndRoundTrip() throws {
        let features = "<stream:features><ns0:starttls xmlns:ns0='urn:ietf:params:xml:ns:xmpp-tls'><required/></ns0:starttls></stream:features>"
        let element = try #require(elements(try feed([Self.header, features])).first)
        #expect(element.name == "features" && element.namespace == XMLStreamParser.streamsNamespace)
        #expect(element.child("starttls", namespace: "urn:ietf:params:xml:ns:xmpp-tls")?.child("required") != nil)

        var written = XMPPElement("message", namespace: "jabber:client", attributes: ["to": "x@y", "id": "a\"b<'"])
        written.append(XMPPElement("body", namespace: "jabber:client", text: "<&> \u{1} tab\tend"))
        let read = try #require(elements(try feed([Self.header, written.description])).first)
        #expect(read[attribute: "id"] == "a\"b<'")
        #expect(read.child("body")?.text == "<&> \u{FFFD} tab\tend", "a control character XML cannot carry is replaced")
    }

    @Test(
        "restricted XML and malformed streams end in a typed error",
        arguments: [
            ("<!-- a comment -->", "restricted-xml"),
            ("<!DOCTYPE lolz [<!ENTITY lol 'lol'><!ENTITY lol2 '&lol;&lol;&lol;'>]>", "restricted-xml"),
            ("<?php echo 1 ?>", "restricted-xml"),
            ("<message><body>&lol2;</body></message>", "restricted-xml"),
            ("<message><body>&#0;</body></message>", "not-well-formed"),
            ("<message><body></message>", "not-well-formed"),
            ("<message a='1' a='2'/>", "not-well-formed"),
            ("<message a='<'/>", "not-well-formed"),
            ("<ns9:message/>", "not-well-formed"),
            ("text between stanzas", "not-well-formed"),
            ("<message>&amp</message>", "not-well-formed"),
        ])
    func refused(_ input: String, condition: String) {
        #expect {
            _ = try feed([Self.header, input])
        } throws: { error in
            (error as? XMLStreamError)?.condition == condition
        }
    }

    @Test("bytes that are not UTF-8, and a stream that does not begin with <stream:stream>, are refused")
    func badStart() {
        var parser = XMLStreamParser()
        #expect(throws: XMLStreamError.self) { _ = try parser.feed(Array(Self.header.utf8) + [0x3C, 0x61, 0xFF, 0x3E]) }
        #expect(throws: XMLStreamError.notWellFormed("the stream must begin with <stream:stream>, not <message>")) {
            _ = try feed(["<message xmlns='jabber:client'/>"])
        }
    }

    @Test("a stanza over the size limit is refused before it is complete; one nested too deep too")
    func limits() {
        let limits = XMLStreamParser.Limits(maxStanzaBytes: 1_000, maxDepth: 8)
        #expect(throws: XMLStreamError.self) {
            _ = try feed([Self.header, "<message><body>", String(repeating: "x", count: 600), String(repeating: "y", count: 600)], limits: limits)
        }
        #expect(throws: XMLStreamError.self) {
            _ = try feed([Self.header, "<message>", String(repeating: "<a>", count: 9)], limits: limits)
        }
        #expect(throws: XMLStreamError.self) { _ = try feed([Self.header, "<message " + String(repeating: "a", count: 2_000)], limits: limits) }
        #expect((try? feed([Self.header, "<message><body>" + String(repeating: "x", count: 800) + "</body></message>"], limits: limits))?.count == 2)
    }

    @Test("the parser starts again for a restarted stream")
    func restart() throws {
        var parser = XMLStreamParser()
        _ = try parser.feed(Array((Self.header + "<proceed xmlns='urn:ietf:params:xml:ns:xmpp-tls'/>").utf8))
        parser.reset()
        let events = try parser.feed(Array(Self.header.replacingOccurrences(of: "<?xml version='1.0'?>", with: "").utf8))
        guard case .streamOpened(let header)? = events.first else {
            Issue.record("no header: \(events)")
            return
        }
        #expect(header.attributes["id"] == "s1" && header.defaultNamespace == "jabber:client")
    }
}
