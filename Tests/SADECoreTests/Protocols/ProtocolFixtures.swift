import SADEACL
import SADECore
import Testing

/// Runs `body` and returns the interaction error it threw, or `nil` if it returned.
func interactionError<T>(_ body: () async throws -> T) async -> InteractionError? {
    do {
        _ = try await body()
        return nil
    } catch let error as InteractionError {
        return error
    } catch {
        Issue.record("not an InteractionError: \(error)")
        return nil
    }
}

/// An agent that is started and reports nothing but its received messages.
func startedAgent(_ name: String, on platform: Environment, @AgentBuilder _ parts: @Sendable () -> [any AgentPart] = { [] })
    async throws -> Agent
{
    let agent = Agent(name, on: platform, parts)
    try await agent.start()
    return agent
}

extension InteractionError {
    /// The reply the error carries, if any.
    var reply: ACLMessage? {
        switch self {
        case .refused(let message), .failed(let message), .notUnderstood(let message): message
        default: nil
        }
    }
}
