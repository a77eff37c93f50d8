import Foundation

extension FHIRImporter {
    /// The entry holding a number too large for a `Double` (e.g. `1e400`), found by
    /// scanning the text: JSONDecoder refuses such a document as a whole ("not valid
    /// JSON") without saying where, so ``describe(_:in:)`` cannot name the entry.
    /// `nil` when the text holds no such number.
    ///
    /// The entry is named by position, and by `fullUrl` and resource `id` when they
    /// come before the number (as in SADE's exports, whose keys are sorted).
    static func unrepresentableNumber(in json: Data) -> FHIRImportError? {
        var scan = NumberScan(Array(json))
        return scan.run()
    }

    /// A pass over JSON text that keeps track of where it is: the containers open,
    /// the key each sits under, the position in each array.
    private struct NumberScan {
        private struct Container {
            var isArray: Bool
            var key: String?
            var count = 0
        }

        private let bytes: [UInt8]
        private var position = 0
        private var stack: [Container] = []
        private var key: String?
        private var lastString: String?
        private var fullUrl: String?
        private var resourceID: String?

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        /// Whether the scan is inside `entry[n]` of the Bundle: `n`.
        private var entryIndex: Int? {
            guard stack.count >= 2, !stack[0].isArray, stack[1].isArray, stack[1].key == "entry" else { return nil }
            return stack[1].count
        }

        mutating func run() -> FHIRImportError? {
            while position < bytes.count {
                let byte = bytes[position]
                switch byte {
                case UInt8(ascii: "\""):
                    let text = string()
                    noteValue(text)
                    lastString = text
                    continue
                case UInt8(ascii: ":"):
                    key = lastString
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    stack.append(Container(isArray: byte == UInt8(ascii: "["), key: stack.last?.isArray == false ? key : nil))
                    key = nil
                    if stack.count == 3, stack[1].key == "entry" { (fullUrl, resourceID) = (nil, nil) }
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    _ = stack.popLast()
                    key = nil
                case UInt8(ascii: ","):
                    if stack.last?.isArray == true { stack[stack.count - 1].count += 1 }
                    key = nil
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    let start = position
                    while position < bytes.count, Self.isNumberByte(bytes[position]) { position += 1 }
                    let token = String(decoding: bytes[start..<position], as: UTF8.self)
                    if let value = Double(token), !value.isFinite, let index = entryIndex {
                        return FHIRImportError(
                            entry: FHIRImportError.Entry(index: index, fullUrl: fullUrl, id: resourceID),
                            problem: .malformedJSON(path: path(), reason: "the number \(token) is too large"))
                    }
                    continue
                default:
                    break
                }
                position += 1
            }
            return nil
        }

        /// Remembers the entry's `fullUrl` and its resource's `id` as they go by.
        private mutating func noteValue(_ text: String) {
            guard entryIndex != nil, key != nil else { return }
            if stack.count == 3, key == "fullUrl" { fullUrl = text }
            if stack.count == 4, stack[3].key == "resource", key == "id" { resourceID = text }
        }

        /// The path of the current value from the entry on, e.g. `resource.valueQuantity.value`.
        private func path() -> String {
            var text = ""
            func append(_ part: String) { text += part.hasPrefix("[") || text.isEmpty ? part : "." + part }
            for level in stride(from: 3, to: stack.count, by: 1) {
                append(stack[level - 1].isArray ? "[\(stack[level - 1].count)]" : stack[level].key ?? "")
            }
            if let top = stack.last, stack.count >= 3 { append(top.isArray ? "[\(top.count)]" : key ?? "") }
            return text
        }

        /// A string from its opening quote; escapes are kept as written, which is
        /// enough to recognise keys.
        private mutating func string() -> String {
            position += 1
            let start = position
            while position < bytes.count, bytes[position] != UInt8(ascii: "\"") {
                position += bytes[position] == UInt8(ascii: "\\") ? 2 : 1
            }
            let text = String(decoding: bytes[start..<min(position, bytes.count)], as: UTF8.self)
            position += 1
            return text
        }

        private static func isNumberByte(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): true
            default: false
            }
        }
    }
}
