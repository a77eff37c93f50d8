/// Turns messages into bytes and back: the hot spot a transport plugs a wire format into.
///
/// ``ACLStringCodec`` speaks the FIPA string form (fipa00070), ``ACLJSONCodec`` the JSON
/// object form. Both are value types that can be shared between tasks.
public protocol ACLCodec: Sendable {
    /// The message in this codec's wire format.
    func encode(_ message: ACLMessage) throws -> [UInt8]
    /// The one message in `bytes`; throws if the bytes are not exactly one valid message.
    func decode(_ bytes: [UInt8]) throws -> ACLMessage
}
