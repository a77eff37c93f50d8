import Foundation
import SADEHealth
import SADEHealthSQLite
import SADETestSupport
import SADETestTiming
import Testing

@Suite("Health store (SQLite and PostgreSQL): anchored queries", .timeLimit(.minutes(5)), .timed)
struct HealthStoreAnchoredQueryTests {
    @Test("each anchored query returns what was added and deleted since the last anchor", arguments: StoreKind.allCases)
    func followsAdditionsAndDeletions(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let first = (0..<3).map { pulse(60 + Double($0), at: Double($0)) }
            try await store.save(first, as: .system)
            let initial = try await store.changes(.quantity(.heartRate), patient: nil, since: .start, limit: nil, as: .system)
            #expect(initial.added == first)
            #expect(initial.deleted.isEmpty)
            #expect(initial.anchor > .start)

            let second = [pulse(70, at: 10), pulse(71, at: 11)]
            try await store.save(second, as: .system)
            try await store.delete([first[1].id], as: .system)
            let next = try await store.changes(.quantity(.heartRate), patient: nil, since: initial.anchor, limit: nil, as: .system)
            #expect(next.added == second)
            #expect(next.deleted == [first[1].id])
            #expect(next.anchor > initial.anchor)

            let nothing = try await store.changes(.quantity(.heartRate), patient: nil, since: next.anchor, limit: nil, as: .system)
            #expect(nothing == AnchoredChanges(added: [], deleted: [], anchor: next.anchor))

            // From the start again: what is left, and the deletion.
            let replay = try await store.changes(.quantity(.heartRate), patient: nil, since: .start, limit: nil, as: .system)
            #expect(replay.added == [first[0], first[2]] + second)
            #expect(replay.deleted == [first[1].id])
        }
    }

    @Test("a limit pages through additions without losing the deletions between them", arguments: StoreKind.allCases)
    func pagesWithLimit(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let a = pulse(60, at: 0), b = pulse(61, at: 1), c = pulse(62, at: 2)
            try await store.save([a, b], as: .system)
            try await store.delete([a.id], as: .system)
            try await store.save(c, as: .system)
            let d = pulse(63, at: 3)
            try await store.save(d, as: .system)
            try await store.delete([c.id], as: .system)

            let page1 = try await store.changes(.quantity(.heartRate), patient: "p-1", since: .start, limit: 1, as: .system)
            #expect(page1.added == [b])
            #expect(page1.deleted.isEmpty)  // a was deleted after b was added: it belongs to the next page
            let page2 = try await store.changes(.quantity(.heartRate), patient: "p-1", since: page1.anchor, limit: 1, as: .system)
            #expect(page2.added == [d])
            #expect(page2.deleted == [a.id])
            let page3 = try await store.changes(.quantity(.heartRate), patient: "p-1", since: page2.anchor, limit: 1, as: .system)
            #expect(page3.added.isEmpty)
            #expect(page3.deleted == [c.id])
        }
    }

    @Test("anchored queries keep to their type and patient, deletions included", arguments: StoreKind.allCases)
    func filtersByTypeAndPatient(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let mine = pulse(60, "p-1", at: 0)
            let theirs = pulse(80, "p-2", at: 0)
            let breath = HealthSample.quantity(.respiratoryRate, 16, patient: "p-1", at: at(0))
            try await store.save([mine, theirs, breath], as: .system)
            try await store.delete([theirs.id, breath.id], as: .system)
            let changes = try await store.changes(.quantity(.heartRate), patient: "p-1", since: .start, limit: nil, as: .system)
            #expect(changes.added == [mine])
            #expect(changes.deleted.isEmpty)
            let everyone = try await store.changes(.quantity(.heartRate), patient: nil, since: .start, limit: nil, as: .system)
            #expect(everyone.deleted == [theirs.id])
        }
    }

    @Test("deleting a correlation shows as deletions of the correlation and of its members", arguments: StoreKind.allCases)
    func correlationDeletions(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let pressure = HealthSample.bloodPressure(systolic: 120, diastolic: 80, patient: "p-1", at: t0)
            guard case .correlation(let members) = pressure.value else { return }
            try await store.save(pressure, as: .system)
            let before = try await store.changes(.correlation(.bloodPressure), patient: nil, since: .start, limit: nil, as: .system)
            #expect(before.added == [pressure])
            let systolicBefore = try await store.changes(.quantity(.bloodPressureSystolic), patient: nil, since: .start, limit: nil, as: .system)
            #expect(systolicBefore.added == [members[0]])

            try await store.delete([pressure.id], as: .system)
            let correlation = try await store.changes(.correlation(.bloodPressure), patient: nil, since: before.anchor, limit: nil, as: .system)
            #expect(correlation.deleted == [pressure.id])
            let systolic = try await store.changes(.quantity(.bloodPressureSystolic), patient: nil, since: systolicBefore.anchor, limit: nil, as: .system)
            #expect(systolic.deleted == [members[0].id])
        }
    }

    @Test("several types in one read give what one query per type gives, each from its own anchor", arguments: StoreKind.allCases)
    func severalTypesAtOnce(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let heart = HealthType.quantity(.heartRate), breath = HealthType.quantity(.respiratoryRate)
            let oxygen = HealthType.quantity(.oxygenSaturation)
            try await store.save([pulse(60, at: 0), HealthSample.quantity(.respiratoryRate, 16, patient: "p-1", at: t0)], as: .system)
            let heartAnchor = try await store.changes(heart, patient: nil, since: .start, limit: nil, as: .system).anchor
            let later = [pulse(61, at: 1), pulse(62, at: 2), pulse(63, at: 3)]
            try await store.save(later, as: .system)

            let anchors = [heart.identifier: heartAnchor]  // breath and oxygen from the start
            let together = try await store.changes([heart, breath, oxygen], patient: nil, since: anchors, limit: 2, as: .system)
            #expect(Set(together.keys) == [heart.identifier, breath.identifier, oxygen.identifier])
            for type in [heart, breath, oxygen] {
                let alone = try await store.changes(type, patient: nil, since: anchors[type.identifier] ?? .start, limit: 2, as: .system)
                #expect(together[type.identifier] == alone, "\(type)")
            }
            #expect(together[heart.identifier]?.added == Array(later.prefix(2)))
            #expect(together[breath.identifier]?.added.count == 1)
            #expect(together[oxygen.identifier]?.added.isEmpty == true)

            // Deletions come with each type's page, up to where it ended.
            try await store.delete([later[0].id, later[2].id], as: .system)
            let next = [heart.identifier: together[heart.identifier]?.anchor ?? .start]
            let afterDeletion = try await store.changes([heart, breath], patient: nil, since: next, limit: 1, as: .system)
            for type in [heart, breath] {
                let alone = try await store.changes(type, patient: nil, since: next[type.identifier] ?? .start, limit: 1, as: .system)
                #expect(afterDeletion[type.identifier] == alone, "\(type)")
            }
            #expect(afterDeletion[heart.identifier]?.deleted == [later[0].id, later[2].id])
            await #expect(throws: HealthError.self) {
                try await store.changes([heart], patient: nil, since: [:], limit: 0, as: .system)
            }
        }
    }

    @Test("""
        changes of some shards of patients hold those patients' samples only, as PatientShards tells them; complementary \
        shards together hold every sample, each page continuing where it ended
        """, arguments: StoreKind.allCases)
    func changesOfShards(kind: StoreKind) async throws {
        try await withStore(kind) { store in
            let heart = HealthType.quantity(.heartRate), breath = HealthType.quantity(.respiratoryRate)
            // Identifiers beyond ASCII too: the store hashes their UTF-8 bytes as PatientShards does.
            let patients = (0..<40).map { PatientID(rawValue: $0.isMultiple(of: 3) ? "patiënt-ß-😀-\($0)" : "shard-patient-\($0)") }
            #expect(Set(patients.map(PatientShards.shard(of:))).count > 8, "forty patients fall in most of the sixteen shards")
            let samples = patients.enumerated().flatMap { index, patient in
                [
                    HealthSample.quantity(.heartRate, 60 + Double(index), patient: patient, at: t0.addingTimeInterval(Double(index))),
                    HealthSample.quantity(.respiratoryRate, 12 + Double(index % 8), patient: patient, at: t0.addingTimeInterval(Double(index))),
                ]
            }
            try await store.save(samples, as: .system)
            let even = PatientShards(stride(from: 0, to: PatientShards.count, by: 2)), odd = PatientShards.all.subtracting(even)
            var seen: [UUID] = []
            for shards in [even, odd] {
                var anchors: [String: HealthAnchor] = [:]
                while true {  // pages of 7 per type
                    let page = try await store.changes([heart, breath], in: shards, since: anchors, through: nil, limit: 7, as: .system)
                    let added = page.values.flatMap(\.added)
                    #expect(added.allSatisfy { shards.contains($0.patient) }, "only \(shards)'s patients")
                    seen += added.map(\.id)
                    let next = page.mapValues(\.anchor)
                    if next == anchors { break }
                    anchors = next
                }
            }
            #expect(seen.count == samples.count && Set(seen) == Set(samples.map(\.id)), "every sample once, in one shard or the other")
            let none = try await store.changes([heart, breath], in: .empty, since: [:], through: nil, limit: nil, as: .system)
            #expect(none.values.allSatisfy { $0.added.isEmpty })
            let all = try await store.changes([heart, breath], in: .all, since: [:], through: nil, limit: nil, as: .system)
            #expect(all.values.map(\.added.count).reduce(0, +) == samples.count)

            // No further than `through`: a read capped where another ended ends there too.
            let half = try #require(all[heart.identifier]?.anchor).rawValue / 2
            let capped = try await store.changes([heart, breath], in: even, since: [:], through: HealthAnchor(rawValue: half), limit: nil, as: .system)
            #expect(capped.values.allSatisfy { $0.anchor == HealthAnchor(rawValue: half) })
            let rest = try await store.changes([heart, breath], in: even, since: capped.mapValues(\.anchor), through: nil, limit: nil, as: .system)
            let evenSamples = samples.filter { even.contains($0.patient) }.map(\.id)
            let cappedIDs = capped.values.flatMap(\.added).map(\.id), restIDs = rest.values.flatMap(\.added).map(\.id)
            #expect(!cappedIDs.isEmpty && !restIDs.isEmpty)
            #expect(Set(cappedIDs).isDisjoint(with: restIDs) && Set(cappedIDs + restIDs) == Set(evenSamples), "split where capped, nothing twice or lost")
        }
    }
}
