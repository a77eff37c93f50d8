import ArgumentParser
import Foundation
import SADEACL

/// `sade acl …`: convert FIPA-ACL messages between the string form and JSON.
struct AclCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "acl",
        abstract: "Read and write FIPA-ACL messages (string form of fipa00070, or JSON).",
        subcommands: [AclParseCommand.self, AclPrintCommand.self]
    )
}

/// `sade acl parse`: ACL string form in, JSON out.
struct AclParseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "parse",
        abstract: "Read ACL messages in the FIPA string form and print each as JSON.",
        discussion: """
            Reads the files given, or standard input, each holding messages one after the other. \
            On invalid input prints 'error: FILE:LINE:COLUMN: what is wrong' and exits 1.
            """
    )

    @Flag(help: "Print each message as JSON on one line instead of indented.")
    var compact = false

    @Argument(help: "Files to read; standard input when none are given.")
    var files: [String] = []

    func run() throws {
        let json = ACLJSONCodec(prettyPrinted: !compact)
        for source in try AclInput.read(files) {
            let messages: [ACLMessage]
            do {
                messages = try ACLStringCodec().decodeAll(source.bytes)
            } catch {
                throw AclInput.fail("\(source.name):\(error.line):\(error.column): \(error.reason)")
            }
            for message in messages {
                let bytes = try json.encode(message)
                print(String(decoding: bytes, as: UTF8.self))
            }
        }
    }
}

/// `sade acl print`: JSON in, ACL string form out.
struct AclPrintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "print",
        abstract: "Read messages as JSON and print each in the FIPA-ACL string form, one per line.",
        discussion: """
            Accepts one JSON object, an array of objects, or several objects one after the other \
            (one per line, or as 'sade acl parse' prints them). On bad input prints \
            'error: FILE:LINE: what is wrong' and exits 1.
            """
    )

    @Argument(help: "Files to read; standard input when none are given.")
    var files: [String] = []

    func run() throws {
        let codec = ACLStringCodec()
        for source in try AclInput.read(files) {
            let messages: [ACLMessage]
            do {
                messages = try ACLJSONCodec().decodeAll(source.bytes)
            } catch let failure as ACLJSONCodec.DecodingFailure {
                throw AclInput.fail("\(source.name):\(failure.line): \(failure.explanation)")
            } catch let error as ACLParseError {
                throw AclInput.fail("\(source.name): \(error.reason)")
            }
            for message in messages {
                do {
                    print(try codec.encode(message) as String)
                } catch {
                    throw AclInput.fail("\(source.name): \(error)")
                }
            }
        }
    }
}

/// The inputs of an `acl` command and how it reports bad ones.
enum AclInput {
    /// One input: its name for messages (`stdin` or the path) and its bytes.
    struct Source {
        var name: String
        var bytes: [UInt8]
    }

    /// The contents of `files`, or of standard input when there are none.
    static func read(_ files: [String]) throws -> [Source] {
        guard !files.isEmpty else {
            return [Source(name: "stdin", bytes: Array(FileHandle.standardInput.readDataToEndOfFile()))]
        }
        return try files.map { path in
            guard let data = FileManager.default.contents(atPath: path) else {
                throw fail("\(path): cannot read the file")
            }
            return Source(name: path, bytes: Array(data))
        }
    }

    /// Prints `error: message` to standard error and returns the exit code 1 to throw.
    static func fail(_ message: String) -> ExitCode {
        FileHandle.standardError.write(Data("error: \(message)\n".utf8))
        return .failure
    }
}
