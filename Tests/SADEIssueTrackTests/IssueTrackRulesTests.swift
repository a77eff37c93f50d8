import Foundation
import SADEIssueTrack
import SADETestTiming
import Testing

@Suite("Issue track rules (iMobile §IV)", .timeLimit(.minutes(5)), .timed)
struct IssueTrackRulesTests {
    let rules = IssueTrackRules()
    let now = Date(timeIntervalSince1970: 1_795_000_000)

    func issue(_ priority: IssuePriority, dueInHours hours: Double, id: Int64 = 1) -> Issue {
        Issue(id: id, title: "t", description: "d", priority: priority, deadline: now.addingTimeInterval(hours * 3600), service: "infrastructure")
    }

    @Test("a critical issue is always offered, whatever its deadline")
    func criticalAlwaysOffered() {
        for hours: Double in [-5, 1, 24, 48, 49, 720] {
            #expect(rules.isOffered(issue(.critical, dueInHours: hours), at: now))
        }
    }

    @Test("a high issue is offered only when due within two days (overdue included, 48 h exactly included)")
    func highOfferedOnlyWithinTwoDays() {
        #expect(rules.isOffered(issue(.high, dueInHours: -1), at: now))
        #expect(rules.isOffered(issue(.high, dueInHours: 24), at: now))
        #expect(rules.isOffered(issue(.high, dueInHours: 48), at: now))
        #expect(!rules.isOffered(issue(.high, dueInHours: 48.01), at: now))
        #expect(rules.reasonNotOffered(issue(.high, dueInHours: 72), at: now)?.contains("later than two days") == true)
    }

    @Test("medium and low issues are never offered, even overdue")
    func mediumAndLowNeverOffered() {
        for priority in [IssuePriority.medium, .low] {
            for hours: Double in [-24, 1, 240] {
                #expect(!rules.isOffered(issue(priority, dueInHours: hours), at: now))
            }
        }
    }

    @Test("accepts when free")
    func acceptsWhenFree() {
        #expect(rules.answer(workingOn: [], isConnected: true, at: now) == .accept(.free))
    }

    @Test("accepts when working only on medium or low issues, even ones due today")
    func acceptsWithOnlyMediumOrLowWork() {
        let work = [issue(.medium, dueInHours: 2, id: 1), issue(.low, dueInHours: 5, id: 2)]
        #expect(rules.answer(workingOn: work, isConnected: true, at: now) == .accept(.onlyMediumOrLowWork(2)))
    }

    @Test("refuses when working on a critical or high issue due within two days, naming the soonest")
    func refusesWhenBusyWithUrgentIssue() {
        let critical = issue(.critical, dueInHours: 30, id: 7)
        let high = issue(.high, dueInHours: 20, id: 8)
        #expect(rules.answer(workingOn: [critical], isConnected: true, at: now)
            == .refuse(.busyWithUrgentIssue(id: 7, priority: .critical, deadline: critical.deadline)))
        #expect(rules.answer(workingOn: [issue(.low, dueInHours: 1, id: 3), critical, high], isConnected: true, at: now)
            == .refuse(.busyWithUrgentIssue(id: 8, priority: .high, deadline: high.deadline)))
    }

    @Test("accepts when the critical or high work is due later than two days")
    func acceptsWhenUrgentWorkIsFarAway() {
        let work = [issue(.critical, dueInHours: 24 * 5, id: 1), issue(.high, dueInHours: 72, id: 2)]
        #expect(rules.answer(workingOn: work, isConnected: true, at: now) == .accept(.noShortDeadlines(2)))
    }

    @Test("refuses when not connected, even when free")
    func refusesWhenNotConnected() {
        #expect(rules.answer(workingOn: [], isConnected: false, at: now) == .refuse(.notConnected))
    }

    @Test("reasons survive the trip through ACL content")
    func reasonsRoundTripThroughContent() throws {
        let deadline = Date(timeIntervalSince1970: 1_795_086_400)
        for reason in [RefusalReason.busyWithUrgentIssue(id: 7, priority: .critical, deadline: deadline), .notConnected, .unreadableOffer] {
            #expect(RefusalReason(content: reason.content) == reason)
        }
        #expect(RefusalReason.notConnected.content == "(not-connected)")
        for reason in [AcceptReason.free, .onlyMediumOrLowWork(2), .noShortDeadlines(1)] {
            #expect(AcceptReason(content: reason.content) == reason)
        }
        #expect(AcceptReason(content: "(bribe 100)") == nil)
        let resolution = Resolution(issue: 12, employee: "tony", solved: false, note: "needs a \"new\" switch")
        #expect(Resolution(content: resolution.content) == resolution)
    }
}
