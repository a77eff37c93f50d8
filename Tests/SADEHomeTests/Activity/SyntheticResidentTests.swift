import Foundation
@testable import SADEHome
import SADETestTiming
import Testing

@Suite("The synthetic resident and its ground truth", .timeLimit(.minutes(5)), .timed)
struct SyntheticResidentTests {
    static let data = SyntheticResident(days: 90, seed: 1).generate()

    @Test("the same seed gives the same readings; another seed other ones")
    func seeded() {
        let again = SyntheticResident(days: 90, seed: 1).generate()
        #expect(again.lines == Self.data.lines && again.truth == Self.data.truth)
        #expect(SyntheticResident(days: 90, seed: 2).generate().lines != Self.data.lines)
    }

    @Test("the training weeks hold ordinary days only; after them come emergencies and each kind of abnormal day")
    func truth() {
        let truth = Self.data.truth
        #expect(truth.count == 90)
        #expect(truth.prefix(28).allSatisfy { $0.isOrdinary && $0.isTraining })
        let kinds = Set(truth.dropFirst(28).map(\.kind))
        #expect(kinds.isSuperset(of: [.normal, .emergency, .afterEmergency, .stayedInBed, .skippedMeals, .nightWandering]), "\(kinds)")
        #expect(Set(truth.map(\.kind)).isSuperset(of: [.visitor, .away]))
    }

    @Test("after an emergency the resident does nothing more: no activation that day after the moment, none the day after")
    func emergencies() throws {
        let days = Self.data.days
        for (index, truth) in Self.data.truth.enumerated() where truth.kind == .emergency {
            let stop = try #require(truth.emergency)
            #expect(days[index].start <= stop && stop < days[index].end)
            #expect(days[index].events.allSatisfy { $0.time <= stop }, "\(truth.label)")
            #expect(days[index + 1].events.isEmpty && Self.data.truth[index + 1].kind == .afterEmergency)
            #expect(!days[index].events.isEmpty, "the resident was up before")
        }
    }

    @Test("abnormal days look it: a wandering night is busy outside bed and bath, a day in bed has no breakfast, skipped meals leave the kitchen quiet after 11:00")
    func abnormalDays() {
        let days = Self.data.days
        func count(_ day: ActivityDay, from: Int, to: Int, _ counts: (ActivityEvent) -> Bool) -> Int {
            day.events.filter { counts($0) && $0.time >= day.start.addingTimeInterval(Double(from) * 3600) && $0.time < day.start.addingTimeInterval(Double(to) * 3600) }.count
        }
        for (day, truth) in zip(days, Self.data.truth) {
            let night = count(day, from: 0, to: 6) { !$0.isBedroom && $0.roomType != .bathroom }
            switch truth.kind {
            case .nightWandering: #expect(night >= 20, "\(truth.label): \(night)")
            case .normal: #expect(night <= 6, "\(truth.label): \(night)")
            case .stayedInBed: #expect(count(day, from: 0, to: 14) { $0.roomType == .kitchen } == 0, "\(truth.label)")
            case .skippedMeals: #expect(count(day, from: 11, to: 24) { $0.roomType == .kitchen } == 0, "\(truth.label)")
            default: break
            }
        }
    }

    @Test("the CASAS file reads back as the readings it was written from")
    func casasRoundTrip() throws {
        let data = SyntheticResident(days: 3, trainingDays: 3, seed: 5).generate()
        let lines = try CASASReader.parse(data.casas(), timeZone: .gmt)
        #expect(lines.count == data.lines.count)
        for (read, written) in zip(lines, data.lines) {
            #expect(read.sensor == written.sensor && abs(read.time.timeIntervalSince(written.time)) < 0.000_01)
            #expect(written.sensor.hasPrefix("T") ? abs(read.value - written.value) < 0.051 : read.value == written.value)
        }
        #expect(Set(lines.map(\.sensor)) == ["M001", "M002", "M003", "M004", "M005", "M006", "D001", "D002", "T001", "T002", "T003"])
    }

    @Test("noise drops about that share of readings and adds about as many glitches, and leaves the days as they were")
    func noise() {
        let clean = SyntheticResident(days: 40, seed: 3).generate(), noisy = SyntheticResident(days: 40, noise: 0.05, seed: 3).generate()
        #expect(noisy.truth == clean.truth)
        let cleanCount = clean.activations.count, noisyCount = noisy.activations.count
        #expect(Double(abs(noisyCount - cleanCount)) < 0.03 * Double(cleanCount), "\(cleanCount) → \(noisyCount)")
        let cleanTimes = Set(clean.activations.map(\.time)), noisyTimes = Set(noisy.activations.map(\.time))
        let dropped = cleanTimes.subtracting(noisyTimes).count, added = noisyTimes.subtracting(cleanTimes).count
        #expect((0.03...0.07).contains(Double(dropped) / Double(cleanCount)), "dropped \(dropped) of \(cleanCount)")
        #expect((0.03...0.07).contains(Double(added) / Double(cleanCount)), "added \(added)")
    }
}
