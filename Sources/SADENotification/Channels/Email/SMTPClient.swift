import Foundation
import NIOCore
import NIOPosix
import NIOSSL

/// A small SMTP client on SwiftNIO: EHLO, optional STARTTLS, AUTH PLAIN or LOGIN,
/// MAIL / RCPT for every recipient / DATA, QUIT.
struct SMTPClient: Sendable {
    let configuration: SMTPConfiguration
    /// Told about recipients the server refused while others were accepted.
    var onRefusedRecipients: @Sendable ([ChannelError]) -> Void = { _ in }

    /// Sends `message`; throws ``ChannelError`` with the server's reply when it refuses.
    func send(_ message: EmailMessage) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await self.converse(message) }
            group.addTask {
                try await Task.sleep(for: configuration.timeout)
                throw ChannelError(channel: "email", reason: "no answer from \(configuration.host):\(configuration.port) within \(configuration.timeout)")
            }
            defer { group.cancelAll() }
            try await group.next()
        }
    }

    private func converse(_ message: EmailMessage) async throws {
        let channel: NIOAsyncChannel<String, ByteBuffer>
        do {
            channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connect(host: configuration.host, port: configuration.port) { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(SMTPLineDecoder()))
                        return try NIOAsyncChannel<String, ByteBuffer>(wrappingChannelSynchronously: channel)
                    }
                }
        } catch {
            throw ChannelError(channel: "email", reason: "cannot connect to \(configuration.host):\(configuration.port): \(error)")
        }
        try await withTaskCancellationHandler {
            try await channel.executeThenClose { inbound, outbound in
                var session = SMTPSession(
                    lines: inbound.makeAsyncIterator(), outbound: outbound, channel: channel.channel, onRefusedRecipients: onRefusedRecipients)
                try await session.run(message, configuration: configuration)
            }
        } onCancel: {
            channel.channel.close(promise: nil)
        }
    }
}

/// One SMTP conversation, command by command.
private struct SMTPSession {
    var lines: NIOAsyncChannelInboundStream<String>.AsyncIterator
    let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>
    let channel: any Channel
    let onRefusedRecipients: @Sendable ([ChannelError]) -> Void

    mutating func run(_ message: EmailMessage, configuration: SMTPConfiguration) async throws {
        try await expect(220, after: nil)
        var capabilities = try await command("EHLO \(configuration.clientName)", expecting: 250)
        if case .startTLS(let verify) = configuration.security {
            guard capabilities.contains(where: { $0.uppercased().hasPrefix("STARTTLS") }) else {
                throw ChannelError(channel: "email", reason: "the server does not offer STARTTLS", isPermanent: true)
            }
            _ = try await command("STARTTLS", expecting: 220)
            var tls = TLSConfiguration.makeClientConfiguration()
            if !verify { tls.certificateVerification = .none }
            let context = try NIOSSLContext(configuration: tls)
            let hostname = verify ? configuration.host : nil
            try await channel.eventLoop.submit { [channel] in
                let handler = try NIOSSLClientHandler(context: context, serverHostname: hostname)
                try channel.pipeline.syncOperations.addHandler(handler, position: .first)
            }.get()
            capabilities = try await command("EHLO \(configuration.clientName)", expecting: 250)
        }
        if let username = configuration.username {
            try await authenticate(username, configuration.password ?? "", capabilities: capabilities)
        }
        _ = try await command("MAIL FROM:<\(message.from)>", expecting: 250)
        // One refused recipient must not cost the others their copy.
        var refusals: [ChannelError] = []
        for recipient in message.to {
            do {
                _ = try await command("RCPT TO:<\(recipient)>", expecting: 250, 251)
            } catch let refusal as ChannelError {
                refusals.append(refusal)
            }
        }
        // A temporary refusal (4xx) means "try later": the whole message is retried, so
        // that recipient is not silently skipped; permanent ones (5xx) are reported.
        guard refusals.count < message.to.count, refusals.allSatisfy(\.isPermanent) else {
            throw ChannelError(
                channel: "email", reason: refusals.map(\.reason).joined(separator: "; "), isPermanent: refusals.allSatisfy(\.isPermanent))
        }
        if !refusals.isEmpty { onRefusedRecipients(refusals) }
        _ = try await command("DATA", expecting: 354)
        try await write(message.data)
        try await expect(250, after: "DATA")
        _ = try? await command("QUIT", expecting: 221)
    }

    private mutating func authenticate(_ username: String, _ password: String, capabilities: [String]) async throws {
        let auth = capabilities.first { $0.uppercased().hasPrefix("AUTH") }?.uppercased().split(separator: " ") ?? []
        if auth.contains("PLAIN") || !auth.contains("LOGIN") {
            let token = Data("\0\(username)\0\(password)".utf8).base64EncodedString()
            _ = try await command("AUTH PLAIN \(token)", expecting: 235, label: "AUTH PLAIN")
        } else {
            _ = try await command("AUTH LOGIN", expecting: 334)
            _ = try await command(Data(username.utf8).base64EncodedString(), expecting: 334, label: "AUTH LOGIN (user name)")
            _ = try await command(Data(password.utf8).base64EncodedString(), expecting: 235, label: "AUTH LOGIN (password)")
        }
    }

    /// Sends a command and reads its reply; returns the reply's text lines. `label`
    /// stands for the command in errors when the command holds a secret.
    private mutating func command(_ line: String, expecting codes: Int..., label: String? = nil) async throws -> [String] {
        try await write(line + "\r\n")
        return try await readReply(expecting: codes, after: label ?? line)
    }

    private mutating func expect(_ code: Int, after command: String?) async throws {
        _ = try await readReply(expecting: [code], after: command)
    }

    private func write(_ text: String) async throws {
        try await outbound.write(ByteBuffer(string: text))
    }

    /// Reads one reply (`250-…` continuation lines, then `250 …`).
    private mutating func readReply(expecting codes: [Int], after command: String?) async throws -> [String] {
        var texts: [String] = []
        while true {
            guard let line = try await lines.next() else {
                throw ChannelError(channel: "email", reason: "the server closed the connection\(command.map { " after \($0)" } ?? "")")
            }
            let code = Int(line.prefix(3))
            texts.append(String(line.dropFirst(4)))
            // `250-text` continues the reply; `250 text` or a bare `250` ends it.
            let continues = line.count >= 4 && line[line.index(line.startIndex, offsetBy: 3)] == "-"
            guard continues else {
                guard let code, codes.contains(code) else {
                    let permanent = code.map { (500..<600).contains($0) } ?? false
                    throw ChannelError(channel: "email", reason: "\(command ?? "greeting"): \(line)", isPermanent: permanent)
                }
                return texts
            }
        }
    }
}

/// Splits the server's byte stream into reply lines, without the CR LF.
private struct SMTPLineDecoder: ByteToMessageDecoder {
    typealias InboundOut = String

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let newline = buffer.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) else {
            guard buffer.readableBytes < 64 * 1024 else { throw ChannelError(channel: "email", reason: "reply line too long") }
            return .needMoreData
        }
        let length = newline - buffer.readerIndex
        var line = buffer.readString(length: length) ?? ""
        buffer.moveReaderIndex(forwardBy: 1)
        if line.hasSuffix("\r") { line.removeLast() }
        context.fireChannelRead(wrapInboundOut(line))
        return .continue
    }
}
