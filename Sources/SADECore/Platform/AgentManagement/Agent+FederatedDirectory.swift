import SADEACL

/// What a search of this platform's directory and of the directories of the platforms
/// found on the network returned (``Agent/searchDirectories(for:limit:timeout:)``).
public struct FederatedSearchResult: Hashable, Sendable {
    /// The entries found: this platform's first, then each other platform's in the order
    /// of their names; an agent at most once.
    public var entries: [DirectoryEntry]
    /// The other platforms whose DF answered, by name.
    public var answered: [String]
    /// What each of those DFs answered, by platform (an agent may be in several).
    public var answers: [String: [DirectoryEntry]]
    /// The other platforms whose DF did not answer in time, or refused, with why.
    public var unanswered: [String: InteractionError]
}

extension Agent {
    /// Searches this platform's DF and, at once, the DF of every platform found on the
    /// network (``Environment/knownPlatforms``, which discovery fills and empties), and
    /// waits at most `timeout` for them: a platform that does not answer in time is left
    /// out and named in ``FederatedSearchResult/unanswered``. A platform that went away is
    /// not asked any more, so its services vanish with it.
    ///
    /// ```swift
    /// let found = await agent.searchDirectories(for: ServiceTemplate(type: "echo"), timeout: .seconds(2))
    /// for entry in found.entries { print(entry.agent.name) }  // echo@alpha, echo@beta …
    /// ```
    ///
    /// Entries of another platform's agents carry that platform's addresses when their
    /// DF gave none, so they stay reachable however they were found.
    public func searchDirectories(for template: ServiceTemplate, limit: Int = 100, timeout: Duration) async -> FederatedSearchResult {
        var result = FederatedSearchResult(
            entries: environment.directory.search(template, limit: limit), answered: [], answers: [:], unanswered: [:])
        let platforms = environment.knownPlatforms
        guard !platforms.isEmpty, limit > 0 else { return result }
        let answers = await withTaskGroup(of: (String, Result<[DirectoryEntry], InteractionError>).self) { group in
            for platform in platforms.keys {
                group.addTask {
                    let df = AgentIdentifier(name: "df@\(platform)")
                    do throws(InteractionError) {
                        return (platform, .success(try await self.searchDirectory(df, for: template, limit: limit, timeout: timeout)))
                    } catch {
                        return (platform, .failure(error))
                    }
                }
            }
            var answers: [String: Result<[DirectoryEntry], InteractionError>] = [:]
            for await (platform, answer) in group { answers[platform] = answer }
            return answers
        }
        var seen = Set(result.entries.map { fullName(of: $0.agent) })
        for platform in answers.keys.sorted() {
            switch answers[platform]! {
            case .failure(let error):
                result.unanswered[platform] = error
            case .success(let entries):
                result.answered.append(platform)
                let stamped = entries.map { entry in
                    var entry = entry
                    if entry.agent.platform == nil { entry.agent.name += "@\(platform)" }
                    if entry.agent.addresses.isEmpty, entry.agent.platform.map(String.init) == platform { entry.agent.addresses = platforms[platform] ?? [] }
                    return entry
                }
                result.answers[platform] = stamped
                for entry in stamped where seen.insert(fullName(of: entry.agent)).inserted { result.entries.append(entry) }
            }
        }
        result.entries = Array(result.entries.prefix(limit))
        return result
    }

}
