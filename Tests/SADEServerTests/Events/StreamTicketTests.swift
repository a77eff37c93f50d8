import Foundation
import SADETestSupport
import SADETestTiming
import Testing

@testable import SADEServer

@Suite("Live stream tickets: no token in a URL", .timeLimit(.minutes(3)), .timed)
struct StreamTicketTests {
    @Test("""
        a ticket opens one live stream, once; a used, expired or forged ticket, a ticket as a bearer token and a token in \\
        the URL are refused; a new password makes unused tickets worthless; devices get none
        """)
    func ticketsOpenOneStream() async throws {
        try await ServerHarness.run { harness in
            let ward = try await Ward.seed(harness)
            let admin = try await harness.login("admin")
            func ticket(_ token: String) async throws -> HarnessResponse {
                try await harness.request(.post, "/api/v1/events/tickets", token: token)
            }
            let issued = try await ticket(admin)
            #expect(issued.status == .created, "\(issued.text)")
            let value = try #require(issued.object?["ticket"] as? String)
            #expect(issued.object?["expiresAt"] as? String != nil)

            let stream = try await EventStream.open(harness, ticket: value)  // the stream's head came: let in
            await #expect(throws: EventStreamError.status(401), "used already") { try await EventStream.open(harness, ticket: value) }
            stream.close()

            let asBearer = try await harness.request(.get, "/api/v1/auth/me", token: value)
            #expect(asBearer.status == .unauthorized, "a ticket is no bearer token")
            let inURL = try await harness.request(.get, "/api/v1/events?access_token=\(admin)")
            #expect(inURL.status == .unauthorized, "the token is not taken from the URL")
            let forged = value.dropLast(4) + "AAAA"
            await #expect(throws: EventStreamError.status(401)) { try await EventStream.open(harness, ticket: String(forged)) }

            let late = try #require(try await ticket(admin).object?["ticket"] as? String)
            harness.clock.advance(by: .seconds(31))
            await #expect(throws: EventStreamError.status(401), "expired after 30 s") { try await EventStream.open(harness, ticket: late) }

            let nurse = try await harness.login("nurse-a")
            let unused = try #require(try await ticket(nurse).object?["ticket"] as? String)
            let accounts = harness.system.accounts
            let id = try #require(try await accounts.account(username: "nurse-a")?.id)
            try await accounts.changePassword(of: id, to: "a-new-password", at: harness.system.now())
            await #expect(throws: EventStreamError.status(401), "the password changed") { try await EventStream.open(harness, ticket: unused) }

            #expect(try await ticket(ward.deviceSecret).status == .forbidden)
        }
    }
}
