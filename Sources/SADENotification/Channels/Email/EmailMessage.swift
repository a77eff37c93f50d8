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
            ("Content-Transfer-Encoding", "8bit"),
        ]
        headers += extraHeaders
        let head = headers.map { "\($0.0): \($0.1)" }.joined(separator: "\r\n")
        let lines = body.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            .split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix(".") ? "." + $0 : String($0) }
        return head + "\r\n\r\n" + lines.joined(separator: "\r\n") + "\r\n.\r\n"
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
