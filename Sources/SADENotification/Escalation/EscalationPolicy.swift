/// Who is told about an unacknowledged alert, and when (e.g. the nurse on duty at
/// once, the doctor after 5 minutes, the sector's mailing list after 15).
public struct EscalationPolicy: Hashable, Sendable, Codable {
    /// One step: after a delay from raising the alert, notify these recipients.
    public struct Step: Hashable, Sendable, Codable {
        /// The delay from raising the alert.
        public var after: Duration
        /// Who to notify.
        public var recipients: [Recipient]

        /// Creates a step.
        public init(after: Duration, notify recipients: [Recipient]) {
            self.after = after
            self.recipients = recipients
        }
    }

    /// The steps in order of their delays; the first usually has delay zero.
    public var steps: [Step]

    /// Creates a policy; steps are sorted by delay.
    public init(_ steps: [Step]) {
        self.steps = steps.sorted { $0.after < $1.after }
    }

    /// Nurse → doctor after `doctorAfter` → e-mail to `mailingList` after `mailAfter`.
    public static func nurseThenDoctorThenMail(
        nurses: [String], doctors: [String], mailingList: [String], doctorAfter: Duration = .seconds(300), mailAfter: Duration = .seconds(900)
    ) -> EscalationPolicy {
        EscalationPolicy([
            Step(after: .zero, notify: nurses.map(Recipient.user)),
            Step(after: doctorAfter, notify: doctors.map(Recipient.user)),
            Step(after: mailAfter, notify: mailingList.map(Recipient.email)),
        ])
    }
}
