import Foundation

extension LearnedSilence {
    /// ``anchors(in:)`` of a window sliding forward over activations, as the detector
    /// meets them in real time, without working out the whole window again at each step.
    ///
    /// Each activation's decision depends only on the last anchor before it that placed the
    /// resident, and on the activations within ``corroboration`` before it in the window.
    /// So when the window's start moves on, the decisions are worked out again from the new
    /// start only until one agrees with the decision kept from before — same anchor, same
    /// resident after it — at an activation the old start was too far back to matter to;
    /// from there on every decision is the same as before.
    struct SlidingAnchors {
        let detector: LearnedSilence
        let events: [ActivityEvent]
        /// The window is `events[start..<end]`; `steps` holds its decisions, by index.
        private(set) var start = 0
        private(set) var end = 0
        private var steps: [AnchorStep]

        init(_ detector: LearnedSilence, events: [ActivityEvent]) {
            self.detector = detector
            self.events = events
            start = events.startIndex
            end = events.startIndex
            steps = Array(repeating: AnchorStep(anchor: nil, resident: nil), count: events.count)
        }

        /// Moves the window to `events[first...last]` (neither end may move back) and
        /// returns the decision at `last`.
        @discardableResult
        mutating func move(first: Int, last: Int) -> AnchorStep {
            precondition(first >= start && last + 1 >= end && first <= last, "the window only slides forward")
            if first >= end {
                (start, end) = (first, first)
            } else if first > start {
                restart(at: first)
            }
            let window = events[start...]
            var resident = end > start ? steps[end - 1].resident : nil
            for index in end..<(last + 1) {
                steps[index] = detector.step(window, at: index, resident: resident)
                resident = steps[index].resident
            }
            end = last + 1
            return steps[last]
        }

        /// The decisions from `first` on, until they agree with those kept.
        private mutating func restart(at first: Int) {
            let window = events[first...], cut = events[first - 1].time
            var resident: Int? = nil
            for index in first..<end {
                let step = detector.step(window, at: index, resident: resident)
                let settled = step == steps[index] && events[index].time.timeIntervalSince(cut) > detector.corroboration
                steps[index] = step
                resident = step.resident
                if settled { break }
            }
            start = first
        }

        /// ``trailingAnchors(in:)`` of the window: the last sure anchor and those not sure after it.
        func trailing() -> [Int] {
            var anchors: [Int] = []
            var index = end - 1
            while index >= start {
                if let isSure = steps[index].anchor {
                    anchors.append(index)
                    if isSure { break }
                }
                index -= 1
            }
            return anchors.reversed()
        }
    }
}
