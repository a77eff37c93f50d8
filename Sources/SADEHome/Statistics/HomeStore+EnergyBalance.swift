import Foundation

extension HomeStore {
    /// The flat's energy balance from what every store keeps: its energy counters'
    /// hourly statistics, and its power meters' history integrated over time.
    public func energyBalance(flat: FlatID, from start: Date, to end: Date, period: StatisticsPeriod) async throws(HomeError) -> [EnergyBalance] {
        let flat = try await self.flat(flat)
        let meters = flat.devices.filter { $0.kind.category == .metering && ($0.kind.unit == "J" || $0.kind.unit == "W") }
        let calendar = HomeTime.calendar(flat.timeZone)
        var edges: [Date] = []
        var edge = period.start(of: start, in: calendar)
        while edge < end {
            edges.append(edge)
            edge = period.next(after: edge, in: calendar)
        }
        edges.append(edge)
        guard edges.count >= 2 else { return [] }
        var consumed = [Double](repeating: 0, count: edges.count - 1), generated = consumed
        let counters = meters.filter { $0.kind.unit == "J" }
        let statistics = try await self.statistics(devices: counters.map(\.id), from: edges[0], to: edges[edges.count - 1], period: period)
        for counter in counters {
            for row in statistics[counter.id] ?? [] {
                guard let index = edges.firstIndex(of: row.start), index < consumed.count else { continue }
                let increase = max(0, row.change)  // a counter that was reset adds nothing
                if counter.kind.isGeneration { generated[index] += increase } else { consumed[index] += increase }
            }
        }
        // A direction measured by an energy counter is not counted again from its power meters.
        let counted = Set(counters.map(\.kind.isGeneration))
        for meter in meters where meter.kind.unit == "W" && !counted.contains(meter.kind.isGeneration) {
            let readings = try await history(
                device: meter.id, from: edges[0].addingTimeInterval(-EnergyBalance.powerHold), to: edges[edges.count - 1], limit: nil)
            let joules = EnergyBalance.integrate(readings, edges: edges)
            for index in joules.indices {
                if meter.kind.isGeneration { generated[index] += joules[index] } else { consumed[index] += joules[index] }
            }
        }
        return (0..<consumed.count).map { EnergyBalance(start: edges[$0], end: edges[$0 + 1], consumed: consumed[$0], generated: generated[$0]) }
    }
}

extension EnergyBalance {
    /// The longest a power reading counts for: a meter that falls silent adds no energy after an hour.
    static let powerHold: TimeInterval = 3600

    /// Power readings (W) integrated over time (J) per bucket between `edges`: each
    /// reading holds until the next one, at most ``powerHold``.
    static func integrate(_ readings: [StateEvent], edges: [Date]) -> [Double] {
        var joules = [Double](repeating: 0, count: edges.count - 1)
        for (index, reading) in readings.enumerated() {
            let next = index + 1 < readings.count ? readings[index + 1].time : edges[edges.count - 1]
            var from = reading.time
            let until = min(next, reading.time.addingTimeInterval(powerHold), edges[edges.count - 1])
            guard until > from else { continue }
            var bucket = max(0, (edges.lastIndex { $0 <= from } ?? 0))
            while from < until, bucket < joules.count {
                let cut = min(until, edges[bucket + 1])
                if cut > from, from >= edges[bucket] { joules[bucket] += reading.value * cut.timeIntervalSince(from) }
                from = max(from, cut)
                bucket += 1
            }
        }
        return joules
    }
}
