import Foundation
import SADETestTiming
import Testing
import SADEHealth
import SADEMonitoring
@testable import SADEServer

@Suite("Staff assignment and duty", .timeLimit(.minutes(5)), .timed)
struct StaffAdminTests {
    @Test("an admin assigns a worker's sectors and duty; the list filters by sector and duty")
    func assign() async throws {
        try await ServerHarness.run { harness in
            let ward = try await AdminWard.seed(in: harness)
            let assigned = try await harness.request(
                .put, "/api/v1/staff/nurse1", token: ward.admin, raw: #"{"sectors": ["icu", "covid-ward"], "onDuty": true}"#)
            #expect(assigned.status == .ok)
            #expect(assigned.object?["sectors"] as? [String] == ["covid-ward", "icu"])
            #expect(try await harness.system.health.worker("nurse1")?.onDuty == true)
            let onDuty = try await harness.request(.get, "/api/v1/staff?sector=icu&onDuty=true", token: ward.nurse2)
            #expect((onDuty.array as? [[String: Any]])?.compactMap { $0["id"] as? String } == ["nurse1"])
            let all = try await harness.request(.get, "/api/v1/staff", token: ward.doctor1)
            #expect(all.array?.count == 3)
            #expect(try await harness.request(.get, "/api/v1/staff/doctor1", token: ward.nurse1).object?["role"] as? String == "doctor")
        }
    }

    @Test("a nurse sets her own duty status but nobody else's, and not her sectors")
    func ownDuty() async throws {
        try await ServerHarness.run { harness in
            let ward = try await AdminWard.seed(in: harness)
            let own = try await harness.request(.put, "/api/v1/staff/nurse1", token: ward.nurse1, raw: #"{"onDuty": true}"#)
            #expect(own.status == .ok && own.object?["onDuty"] as? Bool == true)
            let offDuty = try await harness.request(.put, "/api/v1/staff/nurse1", token: ward.nurse1, raw: #"{"onDuty": false}"#)
            #expect(offDuty.object?["onDuty"] as? Bool == false)
            let other = try await harness.request(.put, "/api/v1/staff/nurse2", token: ward.nurse1, raw: #"{"onDuty": true}"#)
            #expect(other.status == .forbidden)
            let sectors = try await harness.request(.put, "/api/v1/staff/nurse1", token: ward.nurse1, raw: #"{"sectors": ["icu"]}"#)
            #expect(sectors.status == .forbidden)
            for token in [ward.patient, ward.device] {
                #expect(try await harness.request(.put, "/api/v1/staff/nurse1", token: token, raw: #"{"onDuty": true}"#).status == .forbidden)
                #expect(try await harness.request(.get, "/api/v1/staff", token: token).status == .forbidden)
            }
            #expect(try await harness.request(.put, "/api/v1/staff/nurse1", raw: #"{"onDuty": true}"#).status == .unauthorized)
            #expect(try await harness.system.health.worker("nurse1")?.sectors == ["covid-ward"])
            #expect(try await harness.system.health.worker("nurse2")?.onDuty == false)
        }
    }

    @Test("unknown workers are 404; unknown sectors and bad fields 400 naming the field")
    func validation() async throws {
        try await ServerHarness.run { harness in
            let ward = try await AdminWard.seed(in: harness)
            #expect(try await harness.request(.get, "/api/v1/staff/nobody", token: ward.admin).status == .notFound)
            #expect(try await harness.request(.put, "/api/v1/staff/nobody", token: ward.admin, raw: #"{"onDuty": true}"#).status == .notFound)
            let sector = try await harness.request(.put, "/api/v1/staff/nurse1", token: ward.admin, raw: #"{"sectors": ["nowhere"]}"#)
            #expect(sector.status == .badRequest && sector.errorMessage?.hasPrefix("sectors") == true)
            let duty = try await harness.request(.put, "/api/v1/staff/nurse1", token: ward.admin, raw: #"{"onDuty": "yes"}"#)
            #expect(duty.status == .badRequest && duty.errorMessage?.hasPrefix("onDuty") == true)
            let email = try await harness.request(.put, "/api/v1/staff/nurse1", token: ward.admin, raw: #"{"email": "nope"}"#)
            #expect(email.status == .badRequest && email.errorMessage?.hasPrefix("email") == true)
            #expect(try await harness.request(.get, "/api/v1/staff?onDuty=maybe", token: ward.admin).status == .badRequest)
        }
    }
}
