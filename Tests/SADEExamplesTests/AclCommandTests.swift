import Foundation
import SADETestSupport
import SADETestTiming
import Testing

@Suite("sade acl parse / print (the commands)", .timeLimit(.minutes(3)), .timed)
struct AclCommandTests {
    /// A file in a fresh temporary directory holding `text`.
    static func file(_ text: String, named name: String = "input.acl") throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sade-acl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    static let two = """
        (inform :sender (agent-identifier :name a@p :addresses (sequence tcp://h:1))
                :receiver (set (agent-identifier :name b@p)) :content "hello \\"world\\"" :language fipa-sl)
        (request :reply-by 20001205T083000000Z :X-priority high)
        """

    @Test("parse reads messages from stdin and prints one JSON object per line with --compact")
    func parseCompactFromStdin() async throws {
        let result = try await SadeProcess.run(["acl", "parse", "--compact"], input: Self.two)
        #expect(result.status == 0, "stderr: \(result.error)")
        #expect(
            result.output == """
                {"content":"hello \\"world\\"","language":"fipa-sl","performative":"inform","receiver":[{"name":"b@p"}],\
                "sender":{"addresses":["tcp://h:1"],"name":"a@p"}}
                {"X-priority":"high","performative":"request","reply-by":"2000-12-05T08:30:00.000Z"}

                """)
    }

    @Test("parse pretty-prints by default, and print turns that output back into the same messages")
    func parseThenPrint() async throws {
        let parsed = try await SadeProcess.run(["acl", "parse"], input: Self.two)
        #expect(parsed.status == 0, "stderr: \(parsed.error)")
        #expect(parsed.output.contains("\n  \"performative\" : \"inform\""))
        let printed = try await SadeProcess.run(["acl", "print"], input: parsed.output)
        #expect(printed.status == 0, "stderr: \(printed.error)")
        #expect(
            printed.output == """
                (inform :sender (agent-identifier :name a@p :addresses (sequence tcp://h:1)) \
                :receiver (set (agent-identifier :name b@p)) :content "hello \\"world\\"" :language fipa-sl)
                (request :reply-by 20001205T083000000Z :X-priority high)

                """)
    }

    @Test("parse reads files named on the command line, in order")
    func parseFiles() async throws {
        let first = try Self.file("(inform)\n(agree)")
        let second = try Self.file("(refuse)")
        let result = try await SadeProcess.run(["acl", "parse", "--compact", first, second])
        #expect(result.status == 0, "stderr: \(result.error)")
        #expect(result.output == "{\"performative\":\"inform\"}\n{\"performative\":\"agree\"}\n{\"performative\":\"refuse\"}\n")
    }

    @Test("parse exits 1 and names stdin, line and column of bad input")
    func parseErrorOnStdin() async throws {
        let result = try await SadeProcess.run(["acl", "parse"], input: "(inform)\n(inform\n  :content \"x\"\n  :colour red)")
        #expect(result.status == 1)
        #expect(
            result.error
                == "error: stdin:4:3: unknown message parameter ':colour'; user-defined parameters start with :X-\n")
    }

    @Test("parse exits 1 and names the file, line and column of bad input")
    func parseErrorInFile() async throws {
        let path = try Self.file("(inform :content \"never closed)\n")
        let result = try await SadeProcess.run(["acl", "parse", path])
        #expect(result.status == 1)
        #expect(result.error == "error: \(path):1:18: string is never closed with '\"'\n")
        let missing = try await SadeProcess.run(["acl", "parse", "/nonexistent/x.acl"])
        #expect(missing.status == 1)
        #expect(missing.error == "error: /nonexistent/x.acl: cannot read the file\n")
    }

    @Test("print accepts one object, an array, or one object per line")
    func printForms() async throws {
        for input in [
            #"{"performative":"inform","content":"a b"}"#,
            #"[{"performative":"inform","content":"a b"}]"#,
            "{\"performative\":\"inform\",\"content\":\"a b\"}\n",
        ] {
            let result = try await SadeProcess.run(["acl", "print"], input: input)
            #expect(result.status == 0, "stderr: \(result.error)")
            #expect(result.output == "(inform :content \"a b\")\n")
        }
        let lines = try await SadeProcess.run(["acl", "print"], input: "{\"performative\":\"cfp\"}\n{\"performative\":\"propose\"}\n")
        #expect(lines.output == "(cfp)\n(propose)\n")
    }

    @Test("print exits 1 with the line and the reason on bad JSON")
    func printErrors() async throws {
        let wrongType = try await SadeProcess.run(["acl", "print"], input: "{\"performative\":\"inform\"}\n{\"performative\":7}\n")
        #expect(wrongType.status == 1)
        #expect(wrongType.error == "error: stdin:2: at performative: expected a string\n")
        let notJSON = try await SadeProcess.run(["acl", "print"], input: "(inform)")
        #expect(notJSON.status == 1)
        #expect(notJSON.error == "error: stdin:1: expected a JSON object or array but found '('\n")
        let unknownKey = try await SadeProcess.run(["acl", "print"], input: #"{"performative":"inform","colour":"red"}"#)
        #expect(unknownKey.status == 1)
        #expect(unknownKey.error.hasPrefix("error: stdin:1: at colour: unknown ACL parameter 'colour'"), "\(unknownKey.error)")
        let badName = try await SadeProcess.run(["acl", "print"], input: #"{"performative":"inform","X-a b":"v"}"#)
        #expect(badName.status == 1)
        #expect(badName.error.hasPrefix("error: stdin: user-defined parameter 'X-a b' must start with X-"), "\(badName.error)")
    }
}
