import SADEIssueTrack

extension IssueTrackDemo {
    /// Tells one event of Robert's agent as a line of the story.
    static func tell(_ event: IssueTrackEvent, names: [String: String], narrator: Narrator) {
        func name(_ id: String) -> String { names[id] ?? id }
        func list(_ ids: [String]) -> String { ids.map(name).sorted().joined(separator: ", ") }
        switch event {
        case .discovered(let issue, let colleagues):
            narrator.say("Robert's agent", colleagues.isEmpty
                ? "step 1: nobody connected offers \(issue.service) (directory search)"
                : "step 1: found \(list(colleagues)) offering \(issue.service) in the directory")
        case .offered(let issue, let colleagues):
            narrator.say("Robert's agent", "step 2: offers issue \(issue.label) to \(list(colleagues)) (Contract Net cfp)")
        case .refused(_, let employee, let reason):
            narrator.say("\(name(employee))'s agent", "refuses: \(reason) — refuse \(reason.content)")
        case .proposed(_, let employee, let reason):
            narrator.say("\(name(employee))'s agent", "can take it: \(reason) — propose \(reason.content)")
        case .unreachable(_, let employee):
            narrator.say("\(name(employee))'s agent", "does not answer: not connected")
        case .declined(_, let declination):
            narrator.say(name(declination.employee), "\(declination.phrase) — failure \(declination.description)")
        case .taken(let issue, let employee):
            narrator.say("\(name(employee))'s agent", "step 3: confirms that \(name(employee)) took issue \(issue.label); Robert is notified")
        case .finished(let round):
            switch round.result {
            case .notOffered(let reason): narrator.say("Robert's agent", "does not offer issue \(round.issue.label): \(reason)")
            case .emailed(let addresses, let delivery):
                narrator.say("Robert's agent", "nobody took issue \(round.issue.label): e-mail to \(addresses.joined(separator: ", ")) — \(describe(delivery))")
            case .failed(let reason): narrator.say("Robert's agent", "could not hand on issue \(round.issue.label): \(reason)")
            case .taken, .interrupted: break
            }
        case .resolved(let issue, let resolution):
            narrator.say(
                "\(name(resolution.employee))'s agent",
                "step 4: reports issue \(issue.label) \(resolution.solved ? "solved" : "not solved"): \(resolution.note)")
        case .answered, .reported, .decided: break
        }
    }

    private static func describe(_ delivery: IssueRound.EmailDelivery) -> String {
        switch delivery {
        case .delivered: "delivered"
        case .retrying(let error): "not delivered yet (\(error)); the outbox retries"
        case .failed(let error): "not delivered: \(error)"
        case .noRecipients: "nobody to write to"
        }
    }
}
