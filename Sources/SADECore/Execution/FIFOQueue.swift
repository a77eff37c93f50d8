/// A first-in first-out queue on one array: taking from the front moves an index, and
/// the array is emptied (keeping its capacity) whenever the queue runs dry, so a
/// queue that is often drained never shifts elements nor reallocates.
struct FIFOQueue<Element> {
    private var items: [Element] = []
    private var head = 0

    var isEmpty: Bool { head == items.count }

    mutating func append(_ item: Element) { items.append(item) }

    mutating func popFirst() -> Element? {
        guard head < items.count else { return nil }
        let first = items[head]
        head += 1
        if head == items.count {
            items.removeAll(keepingCapacity: true)
            head = 0
        }
        return first
    }
}

extension FIFOQueue: Sendable where Element: Sendable {}
