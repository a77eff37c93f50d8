import Foundation
import SADEHealth
import SADEMonitoring
import SADETestTiming
import Testing

@Suite("Wearable API: users", .timeLimit(.minutes(5)), .timed)
struct WearableUserTests {
    @Test("register makes a patient account with its own patient record; the answer has no password")
    func register() async throws {
        try await ServerHarness.run { harness in
            let response = try await harness.registerWearable("ana", name: "Ana Pop", location: "Cluj-Napoca")
            #expect(response.status == .created)
            #expect(response.object?["username"] as? String == "ana")
            #expect(response.object?["role"] as? String == "User")
            #expect(response.object?["projectId"] as? Int == 0)
            #expect(response.object?["password"] == nil && !response.text.contains(ServerHarness.password))
            let account = try #require(try await harness.system.accounts.account(username: "ana"))
            #expect(account.role == .patient && account.location == "Cluj-Napoca" && account.projectID == 0)
            #expect(account.patientID == "wearable-ana")
            #expect(try await harness.system.health.patient("wearable-ana")?.name == "Ana Pop")
        }
    }

    @Test("a taken username is 409, a short password 400 naming it, a missing username 400 naming it")
    func badRegistrations() async throws {
        try await ServerHarness.run { harness in
            try await harness.registerWearable("ana")
            #expect(try await harness.registerWearable("ANA").status == .conflict)
            let short = try await harness.request(.post, "/Api/User/register", json: ["username": "bob", "password": "short"])
            #expect(short.status == .badRequest)
            #expect(short.errorMessage?.hasPrefix("password") == true)
            let missing = try await harness.request(.post, "/Api/User/register", json: ["password": ServerHarness.password])
            #expect(missing.status == .badRequest)
            #expect(missing.errorMessage?.contains("username") == true)
            #expect(try await harness.system.accounts.account(username: "bob") == nil)
        }
    }

    @Test("login answers the token, name and location; its token works on both APIs")
    func login() async throws {
        try await ServerHarness.run { harness in
            try await harness.registerWearable("ana", name: "Ana Pop", location: "Cluj-Napoca")
            // The iOS app's body, with the thesis's property casing tolerated as ASP.NET Core does.
            let response = try await harness.request(.post, "/api/User/login", json: ["Username": "ana", "Password": ServerHarness.password])
            #expect(response.status == .ok)
            #expect(response.object?["name"] as? String == "Ana Pop")
            #expect(response.object?["location"] as? String == "Cluj-Napoca")
            #expect(response.object?["role"] as? String == "User")
            #expect(response.object?["id"] == nil)
            let token = try #require(response.object?["token"] as? String)
            #expect(try await harness.request(.get, "/api/v1/auth/me", token: token).object?["username"] as? String == "ana")
            #expect(try await harness.request(.get, "/Api/DataItem", token: token).status == .ok)
            let admin = try await harness.request(.post, "/Api/User/login", json: ["username": "admin", "password": ServerHarness.password])
            #expect(admin.object?["role"] as? String == "Admin")
        }
    }

    @Test("wrong credentials get the thesis's 400 with its exact body")
    func wrongCredentials() async throws {
        try await ServerHarness.run { harness in
            try await harness.registerWearable("ana")
            for body in [["username": "ana", "password": "wrong-password"], ["username": "ghost", "password": ServerHarness.password]] {
                let response = try await harness.request(.post, "/Api/User/login", json: body)
                #expect(response.status == .badRequest)
                #expect(response.text == #"{"message":"Username or password is incorrect"}"#)
            }
        }
    }

    @Test("changeProject moves the calling admin; others get 403, an unknown project 404, a bad id 400")
    func changeProject() async throws {
        try await ServerHarness.run { harness in
            let user = try await harness.wearableUser("ana")
            let admin = try await harness.wearableLogin("admin")
            let project = try await harness.request(.post, "/Api/Project", token: admin, json: ["name": "Marathon study"])
            let projectID = try #require(project.object?["id"] as? Int)
            #expect(try await harness.request(.put, "/Api/User/changeProject/\(projectID)", token: user).status == .forbidden)
            #expect(try await harness.request(.put, "/Api/User/changeProject/\(projectID)").status == .unauthorized)
            #expect(try await harness.request(.put, "/Api/User/changeProject/\(projectID)", token: admin).status == .noContent)
            #expect(try await harness.system.accounts.account(username: "admin")?.projectID == projectID)
            #expect(try await harness.request(.put, "/Api/User/changeProject/77", token: admin).status == .notFound)
            let bad = try await harness.request(.put, "/Api/User/changeProject/seven", token: admin)
            #expect(bad.status == .badRequest && bad.errorMessage?.hasPrefix("id") == true)
            #expect(try await harness.system.accounts.account(username: "ana")?.projectID == 0)
        }
    }
}
