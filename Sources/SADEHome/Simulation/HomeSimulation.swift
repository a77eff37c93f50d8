import Foundation

/// Filling a store with a simulated past.
public enum HomeSimulation {
    /// Records `routine`'s events from `start` to `end` in batches of 1,000; returns how many.
    @discardableResult
    public static func seedHistory(store: any HomeStore, flat: Flat, routine: ResidentRoutine, from start: Date, to end: Date) async throws -> Int {
        var count = 0
        var day = flat.calendar.startOfDay(for: start)
        while day < end {
            let next = flat.calendar.date(byAdding: .day, value: 1, to: day) ?? day.addingTimeInterval(86_400)
            let events = routine.events(from: max(day, start), to: min(next, end))
            for batch in stride(from: 0, to: events.count, by: 1000) {
                try await store.record(Array(events[batch..<min(batch + 1000, events.count)]))
            }
            count += events.count
            day = next
        }
        return count
    }
}
