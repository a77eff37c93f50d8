import SADEACL
import SADECore

extension BeliefKey where Value == Bool {
    /// Whether the agent believes the building is on fire.
    public static let isInFire: BeliefKey<Bool> = "isInFire"
}

extension BeliefKey where Value == ACLMessage {
    /// The alarm the Fireman is answering.
    static let alarm: BeliefKey<ACLMessage> = "alarm"
}

/// The two agents of SADE4Health's classic example (§5.1).
public enum FireAlarmAgents {
    /// The ontology of the example's messages.
    public static let ontology = "fire-alarm"

    /// The Alarmed agent: checks the building every `interval`; on fire it believes
    /// `isInFire` and informs the Fireman; the Fireman's report clears the belief.
    public static func alarmed(
        on platform: Environment, building: Building, interval: Duration, narrator: Narrator
    ) -> Agent {
        Agent("Alarmed", on: platform, runBDICycleOnStart: true) {
            Belief(.isInFire, false)
            Goal("watch for fire") {
                Plan("patrol") {
                    CheckFire(building: building, fireman: "Fireman", interval: interval, narrator: narrator)
                }
            }
            MessageHandler.on(.inform) { agent, message in
                narrator.say("Alarmed", "\(message.sender?.localName ?? "someone") reports \(message.content ?? "nothing"); all clear")
                agent.setBelief(.isInFire, to: false)
            }
        }
    }

    /// The Fireman agent: no cycle on start; an alarm sets `isInFire`, which breaks
    /// its maintain goal "no fire", so its BDI cycle runs the extinguish plan.
    public static func fireman(on platform: Environment, building: Building, narrator: Narrator) -> Agent {
        Agent("Fireman", on: platform) {
            Belief(.isInFire, false)
            Goal.maintain("no fire", .belief(.isInFire, is: false)) {
                Plan("extinguish", context: .belief(.isInFire, is: true)) {
                    ExtinguishFire(building: building, narrator: narrator)
                }
            }
            MessageHandler.on(.inform) { agent, message in
                narrator.say("Fireman", "alarm from \(message.sender?.localName ?? "someone"): \(message.content ?? "")")
                agent.setBelief(.alarm, to: message)
                agent.setBelief(.isInFire, to: true)
            }
        }
    }
}

/// The Alarmed agent's cyclic action (the seed's `CheckFire`, pseudocode 1): if the
/// building burns, believe `isInFire` and inform the Fireman. Skipped while the
/// agent already believes there is a fire.
struct CheckFire: Action {
    let building: Building
    let fireman: AgentIdentifier
    let interval: Duration
    let narrator: Narrator

    var schedule: ActionSchedule { .every(interval) }
    var precondition: Condition? { .belief(.isInFire, is: false) }

    func runAction(_ context: ActionContext) async throws {
        guard let room = building.fire else { return }
        narrator.say("Alarmed", "fire detected in the \(room)")
        await context.setBelief(.isInFire, to: true)
        context.send(
            ACLMessage(.inform, receivers: [fireman], content: "(fire :room \"\(room)\")", ontology: FireAlarmAgents.ontology))
        narrator.say("Alarmed", "Fireman informed")
    }
}

/// The Fireman's one-shot action (the seed's `ExtinguishFire`, pseudocode 2): if
/// there is a fire, throw water on it, stop believing `isInFire`, tell the Alarmed.
struct ExtinguishFire: Action {
    let building: Building
    let narrator: Narrator

    func runAction(_ context: ActionContext) async throws {
        guard await context.belief(.isInFire) == true else { return }
        let room = building.extinguish() ?? "building"
        narrator.say("Fireman", "water on the fire in the \(room)")
        await context.setBelief(.isInFire, to: false)
        narrator.say("Fireman", "fire extinguished")
        if let alarm = await context.belief(.alarm) {
            context.send(alarm.makeReply(.inform, content: "(extinguished :room \"\(room)\")"))
        }
    }
}
