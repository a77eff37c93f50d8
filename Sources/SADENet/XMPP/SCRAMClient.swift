import Crypto
import Foundation

/// The client side of SASL SCRAM-SHA-1 (RFC 5802), as XMPP servers offer it: the
/// password never crosses the wire, and the server proves it knows it too.
struct SCRAMClient {
    /// Why the exchange failed.
    enum Failure: Error, Hashable, CustomStringConvertible {
        case malformedChallenge(String)
        case nonceMismatch
        case serverNotVerified

        var description: String {
            switch self {
            case .malformedChallenge(let text): "the server's SCRAM challenge is malformed: \(text.prefix(80))"
            case .nonceMismatch: "the server's SCRAM nonce does not extend ours"
            case .serverNotVerified: "the server's SCRAM signature is wrong: it does not know the password"
            }
        }
    }

    let username: String
    let password: String
    let clientNonce: String
    private var firstBare: String
    private var expectedServerSignature: Data?

    /// Starts an exchange; `nonce` is random unless given (tests use RFC 5802's).
    init(username: String, password: String, nonce: String? = nil) {
        self.username = username
        self.password = password
        clientNonce = nonce ?? Data((0..<18).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
        let name = username.replacingOccurrences(of: "=", with: "=3D").replacingOccurrences(of: ",", with: "=2C")
        firstBare = "n=\(name),r=\(clientNonce)"
    }

    /// The client-first message (no channel binding).
    var firstMessage: String { "n,,\(firstBare)" }

    /// The client-final message answering the server-first `challenge`.
    mutating func finalMessage(answering challenge: String) throws(Failure) -> String {
        var fields: [Character: String] = [:]
        for part in challenge.split(separator: ",") {
            guard part.count >= 2, part[part.index(after: part.startIndex)] == "=" else { throw .malformedChallenge(challenge) }
            fields[part.first!] = String(part.dropFirst(2))
        }
        guard let nonce = fields["r"], let saltText = fields["s"], let salt = Data(base64Encoded: saltText),
            let iterationsText = fields["i"], let iterations = Int(iterationsText), (1...1_000_000).contains(iterations)
        else { throw .malformedChallenge(challenge) }
        guard nonce.hasPrefix(clientNonce), nonce.count > clientNonce.count else { throw .nonceMismatch }

        let salted = Self.saltedPassword(password, salt: salt, iterations: iterations)
        let clientKey = Data(HMAC<Insecure.SHA1>.authenticationCode(for: Data("Client Key".utf8), using: SymmetricKey(data: salted)))
        let storedKey = Data(Insecure.SHA1.hash(data: clientKey))
        let withoutProof = "c=biws,r=\(nonce)"
        let authMessage = "\(firstBare),\(challenge),\(withoutProof)"
        let signature = Data(HMAC<Insecure.SHA1>.authenticationCode(for: Data(authMessage.utf8), using: SymmetricKey(data: storedKey)))
        let proof = Data(zip(clientKey, signature).map { $0 ^ $1 })
        let serverKey = Data(HMAC<Insecure.SHA1>.authenticationCode(for: Data("Server Key".utf8), using: SymmetricKey(data: salted)))
        expectedServerSignature = Data(HMAC<Insecure.SHA1>.authenticationCode(for: Data(authMessage.utf8), using: SymmetricKey(data: serverKey)))
        return "\(withoutProof),p=\(proof.base64EncodedString())"
    }

    /// Checks the server-final message (`v=…`): the server knew the password.
    func verify(serverFinal: String) throws(Failure) {
        guard serverFinal.hasPrefix("v="), let signature = Data(base64Encoded: String(serverFinal.dropFirst(2))),
            let expected = expectedServerSignature, signature == expected
        else { throw .serverNotVerified }
    }

    /// Hi(password, salt, i) of RFC 5802: PBKDF2 with HMAC-SHA-1, one block.
    static func saltedPassword(_ password: String, salt: Data, iterations: Int) -> Data {
        let key = SymmetricKey(data: Data(password.utf8))
        var block = Data(HMAC<Insecure.SHA1>.authenticationCode(for: salt + Data([0, 0, 0, 1]), using: key))
        var result = block
        for _ in 1..<iterations {
            block = Data(HMAC<Insecure.SHA1>.authenticationCode(for: block, using: key))
            for index in result.indices { result[index] ^= block[index] }
        }
        return result
    }
}
