import NIOCore

/// One unit on a SADE TCP connection: a 4-byte big-endian length, then a kind byte and
/// the body.
///
/// - `message` (kind 1): a 2-byte length and the receiver's name, then the encoded
///   ACL message (the FIPA string form by default). One frame per receiver.
/// - `acknowledgement` (kind 2): an 8-byte count of the message frames the other
///   side has taken from this connection so far. Messages stay queued on the
///   sending side until acknowledged, so nothing is lost when a connection drops.
/// - `rejection` (kind 3): the 8-byte position (1-based, on this connection) of a
///   message frame the other side could not take, and why (UTF-8); sent before the
///   acknowledgement that covers it, so the sender can tell the message's sender.
enum Frame: Sendable, Equatable {
    case message(receiver: String, payload: ByteBuffer)
    case acknowledgement(count: UInt64)
    case rejection(position: UInt64, reason: String)

    static let messageKind: UInt8 = 1
    static let acknowledgementKind: UInt8 = 2
    static let rejectionKind: UInt8 = 3
    /// Length prefix and kind byte.
    static let headerBytes = 5

    /// Writes the frame into `buffer`.
    func write(into buffer: inout ByteBuffer) {
        switch self {
        case .message(let receiver, var payload):
            let name = receiver.utf8
            buffer.writeInteger(UInt32(1 + 2 + name.count + payload.readableBytes))
            buffer.writeInteger(Self.messageKind)
            buffer.writeInteger(UInt16(name.count))
            buffer.writeBytes(name)
            buffer.writeBuffer(&payload)
        case .acknowledgement(let count):
            buffer.writeInteger(UInt32(1 + 8))
            buffer.writeInteger(Self.acknowledgementKind)
            buffer.writeInteger(count)
        case .rejection(let position, let reason):
            let text = reason.utf8.prefix(4096)
            buffer.writeInteger(UInt32(1 + 8 + text.count))
            buffer.writeInteger(Self.rejectionKind)
            buffer.writeInteger(position)
            buffer.writeBytes(text)
        }
    }
}

/// Why bytes on a connection are not a valid frame; the connection is closed, since
/// the stream cannot be trusted after that.
enum FrameError: Error, Hashable, CustomStringConvertible {
    case tooLarge(length: Int, limit: Int)
    case empty
    case unknownKind(UInt8)
    case malformed(String)

    var description: String {
        switch self {
        case .tooLarge(let length, let limit): "frame of \(length) bytes exceeds the limit of \(limit)"
        case .empty: "frame without a kind byte"
        case .unknownKind(let kind): "unknown frame kind \(kind)"
        case .malformed(let what): "malformed frame: \(what)"
        }
    }
}

/// Splits the byte stream into ``Frame``s, refusing frames above a size limit before
/// reading them, so a hostile peer cannot make the platform buffer gigabytes.
struct FrameDecoder: ByteToMessageDecoder {
    typealias InboundOut = Frame

    /// The largest frame body accepted.
    let maxFrameBytes: Int

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let length = buffer.getInteger(at: buffer.readerIndex, as: UInt32.self) else { return .needMoreData }
        guard length > 0 else { throw FrameError.empty }
        guard length <= maxFrameBytes else { throw FrameError.tooLarge(length: Int(length), limit: maxFrameBytes) }
        guard buffer.readableBytes >= 4 + Int(length) else { return .needMoreData }
        buffer.moveReaderIndex(forwardBy: 4)
        var body = buffer.readSlice(length: Int(length))!
        context.fireChannelRead(wrapInboundOut(try Self.frame(from: &body)))
        return .continue
    }

    mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        while try decode(context: context, buffer: &buffer) == .continue {}
        return .needMoreData
    }

    private static func frame(from body: inout ByteBuffer) throws -> Frame {
        switch body.readInteger(as: UInt8.self) {
        case Frame.messageKind:
            guard let nameLength = body.readInteger(as: UInt16.self),
                let receiver = body.readString(length: Int(nameLength))
            else { throw FrameError.malformed("receiver name cut short") }
            return .message(receiver: receiver, payload: body)
        case Frame.acknowledgementKind:
            guard let count = body.readInteger(as: UInt64.self), body.readableBytes == 0 else {
                throw FrameError.malformed("acknowledgement is not 8 bytes")
            }
            return .acknowledgement(count: count)
        case Frame.rejectionKind:
            guard let position = body.readInteger(as: UInt64.self) else { throw FrameError.malformed("rejection without a position") }
            return .rejection(position: position, reason: body.readString(length: body.readableBytes) ?? "")
        case let kind?: throw FrameError.unknownKind(kind)
        case nil: throw FrameError.empty
        }
    }
}
