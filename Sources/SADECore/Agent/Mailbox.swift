import SADEACL

/// The messages accepted for an agent and not yet handled, guarded by the agent's
/// mutex so that senders never wait for the agent.
///
/// At most one drain is scheduled at a time (on the agent's ``AgentExecutor``); it
/// exists only while there are messages, so an idle agent has nothing scheduled.
struct Mailbox: ~Copyable {
    private var messages: [ACLMessage] = []
    /// The size of the batch being handled (taken by ``takeAll(into:)``), until it ends.
    private var inHand = 0
    private var isDrainScheduled = false
    private(set) var isClosed = false
    /// The agent's life-cycle state as the white pages show it, readable without
    /// the agent (kept here because every change of state takes this lock anyway).
    var agentState = AgentState.initiated
    /// Messages the agent sent, and messages accepted for it, since it was made (the
    /// introspector's counters; this lock is taken for each anyway).
    private(set) var sent = 0
    private(set) var received = 0

    /// Whether the agent may send: only while it is active, so that an action that
    /// ignores cancellation cannot speak for a suspended or stopped agent.
    var canSend: Bool { agentState == .active }

    /// Whether the agent may send now; if so, counts the message as sent.
    mutating func noteSending() -> Bool {
        guard canSend else { return false }
        sent &+= 1
        return true
    }

    /// How many messages wait, counting the batch being handled as a whole until it ends.
    var depth: Int { messages.count + inHand }

    /// Adds a message. Returns `nil` if the mailbox is closed, otherwise whether the
    /// caller must schedule a drain.
    mutating func accept(_ message: ACLMessage) -> Bool? {
        guard !isClosed else { return nil }
        messages.append(message)
        received &+= 1
        guard !isDrainScheduled else { return false }
        isDrainScheduled = true
        return true
    }

    /// Takes every waiting message into `batch` (empty), which gets the mailbox's
    /// buffer while the mailbox keeps `batch`'s capacity.
    mutating func takeAll(into batch: inout [ACLMessage]) {
        swap(&messages, &batch)
        inHand = batch.count
    }

    /// After a batch: whether more messages wait; when none does, the drain ends.
    mutating func continueDrain() -> Bool {
        inHand = 0
        if messages.isEmpty { isDrainScheduled = false }
        return isDrainScheduled
    }

    /// Gives back messages that could not be handled (the agent was suspended), in
    /// front of any that arrived since, and ends the drain.
    mutating func putBack(_ unhandled: ArraySlice<ACLMessage>) {
        messages.insert(contentsOf: unhandled, at: 0)
        inHand = 0
        isDrainScheduled = false
    }

    /// Whether a drain should be scheduled now (messages wait and none is running).
    mutating func claimDrain() -> Bool {
        guard !isClosed, !messages.isEmpty, !isDrainScheduled else { return false }
        isDrainScheduled = true
        return true
    }

    /// Empties the mailbox and forgets any scheduled drain (a start that failed after
    /// registration); returns the messages it held.
    mutating func reset() -> [ACLMessage] {
        isDrainScheduled = false
        inHand = 0
        defer { messages = [] }
        return messages
    }

    /// Closes the mailbox for good and returns the messages it still held.
    mutating func close() -> [ACLMessage] {
        isClosed = true
        inHand = 0
        defer { messages = [] }
        return messages
    }
}
