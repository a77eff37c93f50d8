extension ACLMessage: CustomStringConvertible {
    /// The message in the FIPA string form (see ``ACLStringCodec``), on one line. Best
    /// effort: what the codec would refuse (a user-defined name without `X-`, a reply-by
    /// beyond year 9999) is written anyway, so the text may not parse back.
    public var description: String {
        var writer = ACLWriter(capacity: 192 + (content?.utf8.count ?? 0))
        try? writer.appendMessage(self, lenient: true)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
