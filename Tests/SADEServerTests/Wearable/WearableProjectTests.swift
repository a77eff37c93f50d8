import Foundation
import SADEHealth
import SADEMonitoring
import SADEServer
import SADETestTiming
import Testing

@Suite("Wearable API: projects, the hour and routing", .timeLimit(.minutes(5)), .timed)
struct WearableProjectTests {
    @Test("project 0 \"No Project\" always exists; only an admin creates projects")
    func projects() async throws {
        try await ServerHarness.run { harness in
            let user = try await harness.wearableUser("ana")
            let admin = try await harness.wearableLogin("admin")
            let initial = try await harness.request(.get, "/Api/Project", token: user)
            #expect(initial.status == .ok)
            let first = try #require(initial.array?.first as? [String: Any])
            #expect(first["id"] as? Int == 0 && first["name"] as? String == "No Project")
            #expect(try await harness.request(.post, "/Api/Project", token: user, json: ["name": "Mine"]).status == .forbidden)
            let created = try await harness.request(.post, "/Api/Project", token: admin, json: ["name": "Marathon study", "description": "Runners"])
            #expect(created.status == .created)
            #expect(created.object?["id"] as? Int == 1)
            #expect(created.object?["adminId"] as? String == (try await harness.system.accounts.account(username: "admin"))?.id)
            #expect((created.object?["startTime"] as? String).flatMap(APIDate.parse) == ServerHarness.epoch)
            #expect(try await harness.request(.get, "/Api/Project", token: user).array?.count == 2)
            #expect(try await harness.request(.get, "/Api/Project/1", token: user).object?["name"] as? String == "Marathon study")
            #expect(try await harness.request(.get, "/Api/Project/5", token: user).status == .notFound)
            let unnamed = try await harness.request(.post, "/Api/Project", token: admin, json: ["name": "  "])
            #expect(unnamed.status == .badRequest && unnamed.errorMessage?.hasPrefix("name") == true)
            #expect(try await harness.request(.get, "/Api/Project").status == .unauthorized)
        }
    }

    @Test("an admin assigns users to projects and reads a project's data")
    func assignAndProjectData() async throws {
        try await ServerHarness.run { harness in
            let ana = try await harness.wearableUser("ana")
            let bob = try await harness.wearableUser("bob")
            let admin = try await harness.wearableLogin("admin")
            _ = try await harness.request(.post, "/Api/Project", token: admin, json: ["name": "Study"])
            let assignment = #"{"username": "ana", "projectId": 1}"#
            #expect(try await harness.request(.put, "/Api/Project/assign", token: ana, raw: assignment).status == .forbidden)
            #expect(try await harness.request(.put, "/Api/Project/assign", token: admin, raw: assignment).status == .noContent)
            #expect(try await harness.system.accounts.account(username: "ana")?.projectID == 1)
            let unknownProject = try await harness.request(.put, "/Api/Project/assign", token: admin, raw: #"{"username": "bob", "projectId": "9"}"#)
            #expect(unknownProject.status == .notFound)
            let unknownUser = try await harness.request(.put, "/Api/Project/assign", token: admin, raw: #"{"username": "zed", "projectId": 1}"#)
            #expect(unknownUser.status == .notFound)
            _ = try await harness.postDataItem(WearableClientPayloads.esp32(bpm: 70, temperature: 36.6), token: ana)
            _ = try await harness.postDataItem(WearableClientPayloads.esp32(bpm: 90, temperature: 36.6), token: bob)
            let study = try await harness.request(.get, "/Api/DataItem/getProjectData/1", token: admin)
            #expect(study.array?.compactMap { ($0 as? [String: Any])?["heartBpm"] as? Double } == [70])
            #expect(try await harness.request(.get, "/Api/DataItem/getProjectData/0", token: admin).array?.count == 1)
            #expect(try await harness.request(.get, "/Api/DataItem/getProjectData/1", token: ana).status == .forbidden)
            #expect(try await harness.request(.get, "/Api/DataItem/getProjectData/4", token: admin).status == .notFound)
        }
    }

    @Test("General/hour answers the server's time as a JSON string, anonymously")
    func hour() async throws {
        try await ServerHarness.run { harness in
            harness.clock.advance(by: .seconds(3600))
            for path in ["/Api/General/hour", "/api/general/hour"] {
                let response = try await harness.request(.get, path)
                #expect(response.status == .ok)
                let text = try #require(try JSONSerialization.jsonObject(with: response.body, options: .fragmentsAllowed) as? String)
                #expect(APIDate.parse(text) == ServerHarness.epoch + 3600)
            }
        }
    }

    @Test("routes match regardless of case; /api/v1 keeps working; unknown /Api routes are 404")
    func caseInsensitiveRoutes() async throws {
        try await ServerHarness.run { harness in
            #expect(try await harness.request(.post, "/API/USER/REGISTER", json: ["username": "ana", "password": ServerHarness.password]).status == .created)
            let token = try await harness.wearableLogin("ana")
            for path in ["/api/dataitem", "/API/DATAITEM", "/Api/DataItem", "/aPi/dAtAiTeM/"] {
                #expect(try await harness.postDataItem(WearableClientPayloads.esp32(bpm: 70, temperature: 36.6), token: token, path: path).status == .created)
            }
            #expect(try await harness.request(.get, "/api/dataitem/GETPROJECTDATAWITHUSER/1", token: token).status == .ok)
            #expect(try await harness.request(.get, "/api/v1/auth/me", token: token).status == .ok)
            #expect(try await harness.request(.post, "/api/v1/auth/login", json: ["username": "ana", "password": ServerHarness.password]).status == .ok)
            let missing = try await harness.request(.get, "/Api/Nothing", token: token)
            #expect(missing.status == .notFound && missing.errorCode == "not-found")
        }
    }

    @Test("the emulators' bodies repeat for a seed, differ between seeds and count steps up")
    func payloadsAreDeterministic() throws {
        for client in WearableClientPayloads.Client.allCases {
            let first = (0..<5).map { WearableClientPayloads.body(for: client, seed: 7, tick: $0) }
            #expect(first == (0..<5).map { WearableClientPayloads.body(for: client, seed: 7, tick: $0) })
            #expect(first != (0..<5).map { WearableClientPayloads.body(for: client, seed: 8, tick: $0) })
        }
        let watch = (0..<20).map { WearableClientPayloads.body(for: .watch, seed: 3, tick: $0) }
        let steps = try watch.map { try #require((try JSONSerialization.jsonObject(with: $0) as? [String: Any])?["steps"] as? Int) }
        #expect(steps == steps.sorted())
        let board = try #require(try JSONSerialization.jsonObject(with: WearableClientPayloads.body(for: .esp32, seed: 3, tick: 0, heartBpm: 130)) as? [String: Any])
        #expect(board["heartBpm"] as? String == "130")
        #expect(board["temperature"] is String)
    }
}
