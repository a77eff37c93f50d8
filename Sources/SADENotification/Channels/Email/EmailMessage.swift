import Foundation

/// An e-mail as it goes over SMTP: RFC 5322 headers and a plain-text UTF-8 body with
/// CRLF line ends and dot-stuffing (RFC 5321 §4.5.2).
struct EmailMessage: Hashable, Sendable {
    var from: String
    var fromName: String?
    var to: [String]
    var subject: String
    var body: String
    var date: Date
    var messageID: String
    var extraHeaders: [(String, String)] = []

    static func == (lhs: EmailMessage, rhs: EmailMessage) -> Bool { lhs.data == rhs.data }
    func hash(into hasher: inout Hasher) { hasher.combine(data) }

    /// The text sent after `DATA`, dot-stuffed, ending with the lone `.` line.
    var data: String {
        var headers = [
            ("From", fromName.map { "\(Self.encodedWord($0)) <\(from)>" } ?? "<\(from)>"),
            ("To", to.map { "<\($0)>" }.joined(separator: ", ")),
            ("Subject", Self.encodedWord(subject)),
            ("Date", Self.rfc5322Date(date)),
            ("Message-ID", "<\(messageID)>"),
            ("MIME-Version", "1.0"),
            ("Content-Type", "text/plain; charset=utf-8"),
        ]
        let lines = body.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            .split(separator: "\n", omittingEmptySubsequences: false)
        // SMTP lines may not exceed 998 octets (997 leaves room for dot-stuffing): a body
        // with longer lines goes as base64.
        let text: String
        if lines.allSatisfy({ $0.utf8.count <= 997 }) {
            headers.append(("Content-Transfer-Encoding", "8bit"))
            text = lines.map { $0.hasPrefix(".") ? "." + $0 : String($0) }.joined(separator: "\r\n")
        } else {
            headers.append(("Content-Transfer-Encoding", "base64"))
            text = Data(lines.joined(separator: "\r\n").utf8).base64EncodedString(options: [.lineLength76Characters, .endLineWithCarriageReturn, .endLineWithLineFeed])
        }
        headers += extraHeaders.map { ($0.0, Self.encodedWord($0.1)) }
        let head = headers.map { "\($0.0): \($0.1)" }.joined(separator: "\r\n")
        return head + "\r\n\r\n" + text + "\r\n.\r\n"
    }

    /// Whether `address` can go into `MAIL FROM` / `RCPT TO` and the headers as is: one
    /// `@`, no spaces, control characters or angle brackets (nothing that could end the
    /// command line or the header and start another).
    static func isAcceptable(address: String) -> Bool {
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && !parts[1].isEmpty && address.utf8.count <= 254
            && address.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value != 0x7F && !"<>()[],;:\\\"".unicodeScalars.contains($0) }
    }

    /// A header value as is when it is printable ASCII, else as an RFC 2047 encoded word.
    static func encodedWord(_ text: String) -> String {
        let plain = text.unicodeScalars.allSatisfy { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F }
        return plain ? text : "=?UTF-8?B?\(Data(text.utf8).base64EncodedString())?="
    }

    /// `Sun, 22 Nov 2026 01:14:23 +0000`.
    static func rfc5322Date(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        return formatter.string(from: date)
    }
}
