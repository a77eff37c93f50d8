import Foundation
import SADECore
import SADEHealth
@testable import SADEMonitoring
import SADENotification
import SADETestTiming
import Testing

@Suite("The whole pipeline: detection, Contract Net, escalation", .timeLimit(.minutes(3)), .timed)
struct PipelineAlertTests {
    static let deteriorating = VitalSignSimulator(patient: "patient-01", profile: .deteriorating, seed: 1, start: Ward.epoch)

    /// Gives `staff` `count` open alerts about another patient.
    static func load(_ staff: StaffID, with count: Int, in fixture: PipelineFixture) async throws {
        for _ in 0..<count {
            let notice = try await AlertDesk(outbox: fixture.outbox).raise(
                Notice(recipients: [.user(staff)], severity: .warning, title: "earlier", body: "b", subject: "patient-99"),
                policy: EscalationPolicy([]))
            try await fixture.pipeline.book.record(AlertRecord(
                id: notice.id, patient: "patient-99", sector: "covid-ward", category: .clinical, severity: .warning, title: "earlier",
                message: "b", raisedAt: Ward.epoch, assignee: staff))
        }
    }

    @Test("""
        a deteriorating patient gives exactly one alert, assigned by Contract Net to the least-loaded nurse on duty in \
        the patient's sector, pushed live, escalated to the doctor when not acknowledged, and not escalated further once acknowledged
        """)
    func deterioratingPatientGivesOneAssignedEscalatingAlert() async throws {
        let fixture = try PipelineFixture.make(simulators: [Self.deteriorating])
        try await Ward.seed(fixture.store, patients: [Ward.patient("patient-01", in: "covid-ward")])
        try await Self.load("cal", with: 2, in: fixture)
        var log = fixture.events.subscribe(buffer: 100_000).makeAsyncIterator()
        var live = fixture.events.subscribe(buffer: 100_000).makeAsyncIterator()
        var danInbox = fixture.app.subscribe(for: "dan").makeAsyncIterator()
        var doctorInbox = fixture.app.subscribe(for: "doc").makeAsyncIterator()
        try await fixture.start()
        #expect(await fixture.pipeline.careWorkers == ["amy", "bea", "cal", "dan", "doc", "fay"])

        let alert = try #require(try await fixture.tickUntilAlert(for: "patient-01"))
        #expect(alert.assignee == "dan", "cal has two open alerts; bea is off duty; amy works in the ICU")
        #expect(alert.sector == "covid-ward")
        #expect(alert.category == .clinical)
        #expect(alert.title.hasPrefix("NEWS2"))
        #expect(alert.escalations.map(\.step) == [0])
        #expect(fixture.pipeline.book.openAlertCount(assignee: "dan") == 1)
        let pushed = await next(&live) { $0.type == "alert" && $0.patient == "patient-01" }
        #expect(pushed?.alert?.id == alert.id)
        #expect(await danInbox.next()?.id == alert.id, "the winner is told in the app")

        await fixture.tick(5)  // five minutes without acknowledgement
        let escalated = await next(&live) { $0.type == "escalated" }
        #expect(escalated?.alert?.escalations.map(\.step) == [0, 1])
        #expect(escalated?.alert?.escalations.last?.recipients == ["user:doc"])
        #expect(await doctorInbox.next()?.title == "Escalated: \(alert.title)")

        let doctorNotice = try #require(escalated?.alert?.escalations.last?.notice)
        let acknowledged = try await fixture.pipeline.book.acknowledge(doctorNotice, by: "dan")
        #expect(acknowledged.id == alert.id, "the notice the doctor got stands for its alert")
        #expect(acknowledged.acknowledgedBy == "dan")
        #expect(await next(&live) { $0.type == "acknowledged" }?.alert?.acknowledgedBy == "dan")
        #expect(fixture.pipeline.book.openAlertCount(assignee: "dan") == 0)

        await fixture.tick(30)  // the patient stays deteriorated: the same episode
        let alerts = try await fixture.pipeline.book.alerts(patients: ["patient-01"])
        #expect(alerts.map(\.id) == [alert.id])
        #expect(alerts.first?.escalations.map(\.step) == [0, 1], "no e-mail after the acknowledgement")
        #expect(fixture.mail.delivered.isEmpty)
        await fixture.stop()
        let pushedAlerts = await drain(&log, hub: fixture.events).filter { $0.type == "alert" && $0.patient == "patient-01" }
        #expect(pushedAlerts.count == 1)
    }

    @Test("when nobody on duty in the sector proposes, the sector's list is e-mailed and the alert is recorded unassigned")
    func nobodyOnDutyMailsTheSector() async throws {
        let simulator = VitalSignSimulator(patient: "patient-02", profile: .deteriorating, seed: 2, start: Ward.epoch)
        let fixture = try PipelineFixture.make(simulators: [simulator])
        try await Ward.seed(fixture.store, patients: [Ward.patient("patient-02", in: "isolation")])
        try await fixture.start()

        let alert = try #require(try await fixture.tickUntilAlert(for: "patient-02"))
        #expect(alert.assignee == nil)
        #expect(alert.escalations.first?.recipients == ["email:\(Ward.isolationList)"])
        let notice = try #require(try await fixture.outbox.notification(alert.id))
        #expect(notice.recipients == [.email(Ward.isolationList)])
        #expect(notice.subject == "patient-02")
        await fixture.tick(1)
        #expect(fixture.mail.delivered.map(\.id).contains(alert.id))
        await fixture.stop()
    }

    @Test("noisy and normal patients page nobody, however long they are watched")
    func noisyPatientsPageNobody() async throws {
        let patients: [PatientID] = ["patient-03", "patient-04", "patient-05", "patient-06"]
        let simulators = patients.enumerated().map { index, patient in
            VitalSignSimulator(
                patient: patient, profile: index == 3 ? .normal : .noisy, seed: UInt64(10 + index), onRespirator: index == 2,
                start: Ward.epoch, configuration: .init(spikeProbability: 0.2))
        }
        let fixture = try PipelineFixture.make(simulators: simulators)
        try await Ward.seed(fixture.store, patients: patients.map { Ward.patient($0, in: "covid-ward") })
        var log = fixture.events.subscribe(buffer: 100_000).makeAsyncIterator()
        try await fixture.start()
        await fixture.tick(180)
        #expect(try await fixture.pipeline.book.alerts().isEmpty)
        await fixture.stop()
        let events = await drain(&log, hub: fixture.events)
        let scores = events.compactMap { if case .news2(let event) = $0 { event.total } else { nil } }
        #expect(scores.count >= 4 * 170)
        #expect(scores.max() ?? 99 <= 4)
        #expect(scores.contains { $0 >= 2 }, "the spikes were there, and scored")
    }

    @Test("a dropping-out monitor gives one device alert per silence")
    func droppingOutGivesOneAlertPerSilence() async throws {
        let simulator = VitalSignSimulator(patient: "patient-07", profile: .droppingOut, seed: 7, start: Ward.epoch)
        let fixture = try PipelineFixture.make(simulators: [simulator])
        try await Ward.seed(fixture.store, patients: [Ward.patient("patient-07", in: "covid-ward")])
        try await fixture.start()
        await fixture.tick(65)  // silent 10–30 and 40–60 minutes after the start
        let alerts = try await fixture.pipeline.book.alerts(patients: ["patient-07"])
        #expect(alerts.count == 2)
        #expect(alerts.allSatisfy { $0.category == .device && $0.title.hasPrefix("No data") })
        #expect(alerts.map(\.assignee) == ["dan", "cal"], "newest first: cal won the tie for the first, so dan was less loaded for the second")
        await fixture.stop()
    }
}

@Suite("Per-patient thresholds", .timeLimit(.minutes(3)), .timed)
struct PerPatientThresholdTests {
    @Test("a patient's own range decides whether a reading is out of range; the latest NEWS2 is kept per patient")
    func rangeOverridesDecide() async throws {
        let fixture = try PipelineFixture.make(rules: AlertRules(outOfRangeSeverity: .warning))
        var athlete = Ward.patient("patient-08", in: "covid-ward")
        athlete.rangeOverrides = [.heartRate: 40...55]
        try await Ward.seed(fixture.store, patients: [athlete, Ward.patient("patient-09", in: "covid-ward")])
        try await fixture.start()
        try await fixture.store.save(
            ["patient-08", "patient-09"].map { HealthSample.quantity(.heartRate, 75, patient: $0, at: Ward.epoch) }, as: .system)
        await fixture.pipeline.settle()
        let alerts = try await fixture.pipeline.book.alerts()
        #expect(alerts.map(\.patient) == ["patient-08"], "75/min is normal, except for a patient whose range ends at 55")
        #expect(alerts.first?.title.hasPrefix("heartRate 75.0 out of range") == true)
        let scores = await fixture.pipeline.latestNEWS2
        #expect(scores.keys.sorted() == ["patient-08", "patient-09"])
        #expect(scores["patient-08"]?.total == 0 && scores["patient-08"]?.score.missing.count == 6)
        await fixture.stop()
    }
}
