import Crypto
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The keys that seal identifying data (names, dates of birth, contact details) before
/// any store sees it: AES-256-GCM, each value bound to the record it belongs to. The
/// first key seals; every key opens what it sealed, so a ring read from a file during a
/// rotation opens values sealed under the old key and the new one alike.
///
/// The file (`sade serve --data-key-file`) holds one key a line, the current one first:
///
/// ```text
/// # SADE data keys: the first seals, every one opens
/// sade-data-key:v1:4Jc0t4b1…=
/// ```
public struct DataKeyRing: Sendable {
    /// What went wrong with a key file or a sealed value.
    public struct Failure: Error, Hashable, Sendable, CustomStringConvertible {
        public let description: String

        /// A failure, told in a sentence.
        public init(description: String) { self.description = description }
    }

    /// One key and its identifier (a digest of it, written into every value it seals).
    public struct Key: Sendable {
        /// 8 hex digits of the key's SHA-256.
        public let id: String
        let key: SymmetricKey

        /// A key of 32 bytes.
        public init(_ bytes: Data) throws(Failure) {
            guard bytes.count == 32 else { throw Failure(description: "a data key is 32 bytes, not \(bytes.count)") }
            key = SymmetricKey(data: bytes)
            id = SHA256.hash(data: Data("sade-data-key".utf8) + bytes).prefix(4).map { String(format: "%02x", $0) }.joined()
        }

        /// A new random key.
        public static func random() -> Key {
            // 32 random bytes always make a key.
            try! Key(SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) })
        }

        /// The key's line in a key file.
        public var line: String { "\(DataKeyRing.linePrefix)\(key.withUnsafeBytes { Data($0) }.base64EncodedString())" }
    }

    /// The key that seals.
    public let current: Key
    /// Every key, the current one first.
    public let keys: [Key]

    static let linePrefix = "sade-data-key:v1:"
    /// What every sealed value starts with.
    public static let sealedPrefix = "sealed:v1:"

    /// A ring of `keys`, the first sealing.
    public init(_ keys: [Key]) throws(Failure) {
        guard let first = keys.first else { throw Failure(description: "a data key ring needs a key") }
        current = first
        self.keys = keys
    }

    /// The ring in the key file at `path`.
    ///
    /// - Throws: ``Failure`` when the file cannot be read, holds no key or a malformed line.
    public init(fileAt path: String) throws(Failure) {
        let text: String
        do { text = try String(contentsOfFile: path, encoding: .utf8) } catch {
            throw Failure(description: "cannot read the data key file \(path): \(error.localizedDescription)")
        }
        var keys: [Key] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = line.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard line.hasPrefix(Self.linePrefix), let bytes = Data(base64Encoded: String(line.dropFirst(Self.linePrefix.count))) else {
                throw Failure(description: "\(path), line \(number + 1): not a data key (sade-data-key:v1:<32 bytes in base64>)")
            }
            do { keys.append(try Key(bytes)) } catch { throw Failure(description: "\(path), line \(number + 1): \(error)") }
        }
        guard !keys.isEmpty else { throw Failure(description: "the data key file \(path) holds no key") }
        try self.init(keys)
    }

    /// Writes the ring to `path` (readable by its owner only), replacing the file in one step.
    public func write(to path: String) throws(Failure) {
        let text = "# SADE data keys: the first seals, every one opens. Keep this file apart from the data and its backups.\n"
            + keys.map(\.line).joined(separator: "\n") + "\n"
        let temporary = path + ".new-\(UUID().uuidString.prefix(8))"
        // Made readable by its owner only before the key is in it (never 0644 for a moment).
        guard Self.createPrivateFile(temporary, Array(text.utf8)) else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw Failure(description: "cannot write \(temporary): \(reason)")
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw Failure(description: "cannot write the data key file \(path): \(reason)")
        }
    }

    /// Creates `path` (it must not exist) readable and writable by its owner only, with
    /// `bytes`, flushed to disk.
    private static func createPrivateFile(_ path: String, _ bytes: [UInt8]) -> Bool {
        #if canImport(Glibc)
        let descriptor = Glibc.open(path, O_CREAT | O_EXCL | O_WRONLY, 0o600)
        #else
        let descriptor = Darwin.open(path, O_CREAT | O_EXCL | O_WRONLY, 0o600)
        #endif
        guard descriptor >= 0 else { return false }
        defer {
            #if canImport(Glibc)
            _ = Glibc.close(descriptor)
            #else
            _ = Darwin.close(descriptor)
            #endif
        }
        #if canImport(Glibc)
        let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
        #else
        let written = bytes.withUnsafeBytes { Darwin.write(descriptor, $0.baseAddress, $0.count) }
        #endif
        return written == bytes.count && fsync(descriptor) == 0
    }

    /// `text` sealed under the current key, bound to `context` (the record it belongs to:
    /// a value moved to another record does not open).
    public func seal(_ text: String, context: String) throws(Failure) -> String {
        do {
            let box = try AES.GCM.seal(Data(text.utf8), using: current.key, authenticating: Data(context.utf8))
            guard let combined = box.combined else { throw Failure(description: "AES-GCM gave no sealed box") }
            return "\(Self.sealedPrefix)\(current.id):\(combined.base64EncodedString())"
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(description: "cannot seal: \(error)")
        }
    }

    /// `value` as JSON (dates in milliseconds), sealed as ``seal(_:context:)`` does.
    public func sealJSON(_ value: some Encodable, context: String) throws(Failure) -> String {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        let json: Data
        do { json = try encoder.encode(value) } catch { throw Failure(description: "cannot seal \(context): \(error)") }
        return try seal(String(decoding: json, as: UTF8.self), context: context)
    }

    /// The value ``sealJSON(_:context:)`` sealed in `sealed` for `context`.
    public func openJSON<T: Decodable>(_ type: T.Type, _ sealed: String, context: String) throws(Failure) -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        let json = try open(sealed, context: context)
        do { return try decoder.decode(T.self, from: Data(json.utf8)) } catch {
            throw Failure(description: "a sealed value of \(context) is unreadable: \(error)")
        }
    }

    /// Whether `text` is a sealed value.
    public static func isSealed(_ text: String) -> Bool { text.hasPrefix(sealedPrefix) }

    /// The text sealed in `value` for `context`; a value that is not sealed (written
    /// before a key was set) is returned as it is.
    ///
    /// - Throws: ``Failure`` when its key is not in the ring or the value was altered or
    ///   belongs to another record.
    public func open(_ value: String, context: String) throws(Failure) -> String {
        guard Self.isSealed(value) else { return value }
        let rest = value.dropFirst(Self.sealedPrefix.count)
        guard let colon = rest.firstIndex(of: ":"), let combined = Data(base64Encoded: String(rest[rest.index(after: colon)...])) else {
            throw Failure(description: "a sealed value of \(context) is malformed")
        }
        let id = String(rest[..<colon])
        guard let key = keys.first(where: { $0.id == id }) else {
            throw Failure(description: "\(context) is sealed under data key \(id), which the data key file does not hold")
        }
        do {
            let opened = try AES.GCM.open(AES.GCM.SealedBox(combined: combined), using: key.key, authenticating: Data(context.utf8))
            return String(decoding: opened, as: UTF8.self)
        } catch {
            throw Failure(description: "a sealed value of \(context) does not open: altered, or another record's")
        }
    }
}
