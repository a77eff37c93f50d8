extension HourlyHMM {
    /// Learns a model from days of hourly observations, as §5.4 does (after Bruckner et al.):
    ///
    /// 1. **Chain building**: each day is a chain of one state per hour from the start;
    ///    days that begin alike share their states and branch where they first differ,
    ///    each branch weighted by the days that take it (the order of the days does not
    ///    matter, so the thesis's sorting by activity is not needed).
    /// 2. **Merging identical states**: a run of states linked with 100 % and emitting the
    ///    same becomes one state with P_ii = N/(N+1) and P_ij = 1/(N+1) (5.7, 5.8).
    /// 3. **Merging alternating states**: a run of such states linked with 100 % and
    ///    emitting in turn becomes one state with the same transitions and
    ///    b_i0 = N_count0/N, b_i1 = N_count1/N (5.10–5.12).
    ///
    /// After both, every maximal run of 100 % links is one state; a state that stands for
    /// one hour keeps its branch probabilities and no self-transition.
    public static func learn(from days: [[Bool]]) -> HourlyHMM {
        var trie = Trie()
        for day in days { trie.insert(day) }
        // Each maximal chain of single-child nodes becomes a state.
        var stateOf: [Int: Int] = [:], chains: [[Int]] = []
        var starts = trie.rootChildren
        while let start = starts.popLast() {
            var chain = [start]
            while trie.nodes[chain[chain.count - 1]].children.count == 1 { chain.append(trie.nodes[chain[chain.count - 1]].children[0]) }
            stateOf[start] = chains.count
            chains.append(chain)
            starts.append(contentsOf: trie.nodes[chain[chain.count - 1]].children.reversed())
        }
        let states = chains.map { chain -> State in
            let last = trie.nodes[chain[chain.count - 1]], hours = chain.count
            let ones = chain.filter { trie.nodes[$0].emission }.count
            let leave = hours > 1 ? 1 / Double(hours + 1) : 1
            var next: [Int: Double] = [:]
            for child in last.children { if let state = stateOf[child] { next[state] = leave * Double(trie.nodes[child].count) / Double(last.count) } }
            return State(active: Double(ones) / Double(hours), stay: hours > 1 ? Double(hours) / Double(hours + 1) : 0, next: next, hours: hours)
        }
        var initial: [Int: Double] = [:]
        for child in trie.rootChildren { if let state = stateOf[child] { initial[state] = Double(trie.nodes[child].count) / Double(max(days.count, 1)) } }
        return HourlyHMM(initial: initial, states: states)
    }
}

/// The chains of §5.4.2: a prefix tree of days, counting the days through each state.
private struct Trie {
    struct Node {
        var emission: Bool
        var count: Int
        var children: [Int] = []
    }

    var nodes: [Node] = []
    var rootChildren: [Int] = []

    mutating func insert(_ day: [Bool]) {
        var parent: Int? = nil
        for observation in day {
            let siblings = parent.map { nodes[$0].children } ?? rootChildren
            if let existing = siblings.first(where: { nodes[$0].emission == observation }) {
                nodes[existing].count += 1
                parent = existing
            } else {
                nodes.append(Node(emission: observation, count: 1))
                let index = nodes.count - 1
                if let parent { nodes[parent].children.append(index) } else { rootChildren.append(index) }
                parent = index
            }
        }
    }
}
