import Foundation

/// Our day-level detector: what the resident usually does in each room in each 3-hour
/// block of the day, learned apart for weekdays and weekends. A day is unusual when a room
/// that is always busy at some time of day is quiet (stayed in bed, skipped a meal), or
/// when the night is busy (wandering). Time out of the flat is left out, so a day away
/// or an afternoon out is not a quiet day; more activity by day (a visitor) is no concern.
public struct RoutineProfile: DayDetector {
    public let name = "routine profile (room × 3 h, weekday/weekend)"

    /// How unusual (in standard deviations of log counts) a block must be to flag the day.
    public var threshold: Double
    /// The blocks of the day, in hours, that are night.
    public static let nightBlocks = 0..<2
    /// Hours per block.
    static let blockHours = 3

    struct Cell: Hashable {
        var weekend: Bool?
        var room: String
        var block: Int
    }

    struct Usual {
        var mean: Double
        var deviation: Double
        var samples: Int

        /// The usual count, for carers.
        var count: Int { Int(Foundation.exp(mean).rounded()) - 1 }
    }

    var usual: [Cell: Usual] = [:]
    var rooms: [String] = []

    /// Learns from `days` (days away all day teach nothing and are left out).
    public init(training days: [ActivityDay], threshold: Double = 3.5) {
        self.threshold = threshold
        rooms = Array(Set(days.flatMap { $0.events.map(\.room) })).sorted()
        var values: [Cell: [Double]] = [:]
        for day in days {
            for (cell, value) in Self.cells(of: day, rooms: rooms) {
                values[cell, default: []].append(value)
                values[Cell(weekend: nil, room: cell.room, block: cell.block), default: []].append(value)
            }
        }
        for (cell, list) in values {
            let mean = list.reduce(0, +) / Double(list.count)
            let deviation = (list.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(list.count)).squareRoot()
            usual[cell] = Usual(mean: mean, deviation: deviation, samples: list.count)
        }
    }

    /// ln(1 + activations per block at home) of each room and block the resident was home for at least half of.
    static func cells(of day: ActivityDay, rooms: [String]) -> [(Cell, Double)] {
        let blocks = 24 / blockHours
        var counts: [String: [Int]] = [:]
        for event in day.events {
            let block = min(Int(event.time.timeIntervalSince(day.start) / 3600) / blockHours, blocks - 1)
            counts[event.room, default: Array(repeating: 0, count: blocks)][block] += 1
        }
        var cells: [(Cell, Double)] = []
        for block in 0..<blocks {
            let start = day.start.addingTimeInterval(Double(block * blockHours) * 3600)
            let interval = DateInterval(start: start, end: min(start.addingTimeInterval(Double(blockHours) * 3600), day.end))
            let home = day.homeShare(of: interval)
            guard home >= 0.5 else { continue }
            for room in rooms {
                let count = Double(counts[room]?[block] ?? 0) / home
                cells.append((Cell(weekend: day.isWeekend, room: room, block: block), Foundation.log(1 + count)))
            }
        }
        return cells
    }

    public func judge(_ day: ActivityDay) -> DayVerdict {
        var worst: (score: Double, cell: Cell, value: Double, usual: Usual)?
        for (cell, value) in Self.cells(of: day, rooms: rooms) {
            guard let usual = usual(for: cell) else { continue }
            let night = Self.nightBlocks.contains(cell.block)
            // By day only a room that is usually busy can be missed; at night, any burst is a concern.
            if !night, usual.count < 3 { continue }
            let z = (value - usual.mean) / max(usual.deviation, 0.5)
            let concern = night ? z : -z
            if concern > worst?.score ?? -.infinity { worst = (concern, cell, value, usual) }
        }
        guard let worst else { return DayVerdict(score: 0, isNormal: true) }
        let isNormal = worst.score < threshold
        return DayVerdict(score: worst.score, high: threshold, isNormal: isNormal, reason: isNormal ? nil : Self.reason(worst.cell, worst.value, worst.usual))
    }

    func usual(for cell: Cell) -> Usual? {
        if let specific = usual[cell], specific.samples >= 4 { return specific }
        return usual[Cell(weekend: nil, room: cell.room, block: cell.block)].flatMap { $0.samples >= 4 ? $0 : nil }
    }

    static func reason(_ cell: Cell, _ value: Double, _ usual: Usual) -> String {
        let count = Int((Foundation.exp(value) - 1).rounded())
        let hours = String(format: "%02d:00–%02d:00", cell.block * blockHours, (cell.block + 1) * blockHours)
        let days = cell.weekend == true ? "at weekends" : "on weekdays"
        if nightBlocks.contains(cell.block) {
            return "\(count) activations in the \(cell.room.lowercased()) \(hours) at night; usually \(max(usual.count, 0)) \(days)"
        }
        return count == 0
            ? "no activity in the \(cell.room.lowercased()) \(hours); usually \(usual.count) \(days)"
            : "little activity in the \(cell.room.lowercased()) \(hours): \(count); usually \(usual.count) \(days)"
    }
}
