/// The four strategies of an agent's BDI cycle. Every one has the seed's default,
/// so `ReasoningStrategies()` — or replacing just one — is all most agents need.
///
/// A class, so that the many agents sharing ``default`` hold one reference each
/// instead of four existential copies.
public final class ReasoningStrategies: Sendable {
    /// Step 1: belief revision.
    public let beliefRevision: any BeliefRevisionStrategy
    /// Step 2: option generation.
    public let optionGeneration: any OptionGenerationStrategy
    /// Step 3: deliberation (the filter).
    public let deliberation: any DeliberationStrategy
    /// Step 4: plan selection.
    public let planSelection: any PlanSelectionStrategy
    /// The four strategies' type names, by step (for the introspector), made once.
    let names: [String: String]

    /// Creates a set of strategies; omitted ones are the defaults.
    public init(
        beliefRevision: any BeliefRevisionStrategy = DefaultBeliefRevisionStrategy(),
        optionGeneration: any OptionGenerationStrategy = DefaultOptionGenerationStrategy(),
        deliberation: any DeliberationStrategy = DefaultDeliberationStrategy(),
        planSelection: any PlanSelectionStrategy = DefaultPlanSelectionStrategy()
    ) {
        self.beliefRevision = beliefRevision
        self.optionGeneration = optionGeneration
        self.deliberation = deliberation
        self.planSelection = planSelection
        names = [
            "beliefRevision": String(describing: type(of: beliefRevision)),
            "optionGeneration": String(describing: type(of: optionGeneration)),
            "deliberation": String(describing: type(of: deliberation)),
            "planSelection": String(describing: type(of: planSelection)),
        ]
    }

    /// The seed's four default strategies.
    public static let `default` = ReasoningStrategies()
}
