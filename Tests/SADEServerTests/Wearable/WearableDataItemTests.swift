import Foundation
import SADEHealth
import SADEMonitoring
import SADEServer
import SADETestTiming
import Testing

@Suite("Wearable API: data items", .timeLimit(.minutes(5)), .timed)
struct WearableDataItemTests {
    @Test("the watch's and the ESP32's exact bodies are accepted; the server sets sentDate by its clock")
    func devicePayloads() async throws {
        try await ServerHarness.run { harness in
            let token = try await harness.wearableUser("ana")
            harness.clock.advance(by: .seconds(90))
            let watch = WearableClientPayloads.watch(heartBpm: 72, latitude: 46.75555, longitude: 23.56907, steps: 120, distance: 88.8)
            let fromWatch = try await harness.postDataItem(watch, token: token)
            #expect(fromWatch.status == .created)
            #expect(fromWatch.object?["heartBpm"] as? Double == 72)
            #expect(fromWatch.object?["gpsCoordinates"] as? String == "46.75555 23.56907")
            #expect(fromWatch.object?["steps"] as? Int == 120)
            #expect(fromWatch.object?["distance"] as? Double == 88)
            #expect(fromWatch.object?["device"] as? String == "Apple Watch Series 3")
            #expect((fromWatch.object?["sentDate"] as? String).flatMap(APIDate.parse) == ServerHarness.epoch + 90)
            let esp32 = WearableClientPayloads.esp32(bpm: 81, temperature: 36.8)
            #expect(String(decoding: esp32, as: UTF8.self) == #"{"heartBpm":"81","temperature":"36.80","device":"ESP32"}"#)
            let fromBoard = try await harness.postDataItem(esp32, token: token, path: "/api/DataItem")
            #expect(fromBoard.status == .created)
            #expect(fromBoard.object?["heartBpm"] as? Double == 81)
            #expect(fromBoard.object?["temperature"] as? Double == 36.8)
            #expect(fromBoard.object?["steps"] as? Int == 0)
        }
    }

    @Test("a sentDate or id sent by the client is ignored")
    func serverSetsSentDate() async throws {
        try await ServerHarness.run { harness in
            let token = try await harness.wearableUser("ana")
            let response = try await harness.request(
                .post, "/Api/DataItem", token: token, raw: #"{"id": 99, "heartBpm": 70, "sentDate": "2001-01-01T00:00:00Z"}"#)
            #expect(response.status == .created)
            #expect(response.object?["id"] as? Int == 1)
            #expect((response.object?["sentDate"] as? String).flatMap(APIDate.parse) == ServerHarness.epoch)
        }
    }

    @Test("bad values are refused with 400 naming the field; anonymous posts with 401, device tokens with 403")
    func badValues() async throws {
        try await ServerHarness.run { harness in
            let token = try await harness.wearableUser("ana")
            let cases: [(String, String)] = [
                (#"{"heartBpm": "fast"}"#, "heartBpm"), (#"{"heartBpm": 999}"#, "heartBpm"), (#"{"heartBpm": true}"#, "heartBpm"),
                (#"{"gpsCoordinates": "north pole"}"#, "gpsCoordinates"), (#"{"gpsCoordinates": "95 23.5"}"#, "gpsCoordinates"),
                (#"{"gpsCoordinates": 46.7}"#, "gpsCoordinates"), (#"{"steps": -1}"#, "steps"), (#"{"steps": "12.5"}"#, "steps"),
                (#"{"distance": "far"}"#, "distance"), (#"{"temperature": 300}"#, "temperature"),
            ]
            for (body, field) in cases {
                let response = try await harness.request(.post, "/Api/DataItem", token: token, raw: body)
                #expect(response.status == .badRequest, "\(body)")
                #expect(response.errorMessage?.hasPrefix(field) == true, "\(body): \(response.text)")
            }
            #expect(try await harness.request(.post, "/Api/DataItem", token: token, raw: "{\"heartBpm\": ").status == .badRequest)
            #expect(try await harness.request(.post, "/Api/DataItem", raw: #"{"heartBpm": 70}"#).status == .unauthorized)
            let device = try await harness.system.devices.issue(for: "wearable-ana", label: "bedside monitor").secret
            #expect(try await harness.request(.post, "/Api/DataItem", token: device, raw: #"{"heartBpm": 70}"#).status == .forbidden)
            let ana = try #require(try await harness.system.accounts.account(username: "ana"))
            #expect(try await harness.system.wearable.store.items(ownedBy: ana.id).isEmpty)
        }
    }

    @Test("a data item becomes heartRate, stepCount and bodyTemperature samples of the user's patient record")
    func samples() async throws {
        try await ServerHarness.run { harness in
            let token = try await harness.wearableUser("ana")
            let patient: PatientID = "wearable-ana"
            _ = try await harness.postDataItem(WearableClientPayloads.watch(heartBpm: 72, latitude: 46.7, longitude: 23.5, steps: 100, distance: 70), token: token)
            harness.clock.advance(by: .seconds(5))
            _ = try await harness.postDataItem(WearableClientPayloads.watch(heartBpm: 75, latitude: 46.7, longitude: 23.5, steps: 130, distance: 90), token: token)
            _ = try await harness.postDataItem(WearableClientPayloads.esp32(bpm: 80, temperature: 37.2), token: token)
            _ = try await harness.postDataItem(WearableClientPayloads.esp32(bpm: 0, temperature: 23.5), token: token)  // air, no pulse
            let rates = try await harness.samples(.heartRate, of: patient)
            #expect(rates.compactMap(\.canonicalValue) == [72, 75, 80])
            #expect(rates.first?.device == "Apple Watch Series 3" && rates.first?.start == ServerHarness.epoch)
            let steps = try await harness.samples(.stepCount, of: patient)
            #expect(steps.compactMap(\.canonicalValue) == [100, 30])  // the watch counts since its session started
            #expect(steps.last?.start == ServerHarness.epoch && steps.last?.end == ServerHarness.epoch + 5)
            let temperatures = try await harness.samples(.bodyTemperature, of: patient)
            #expect(temperatures.compactMap { try? $0.quantity?.value(in: .degreeCelsius) } == [37.2])
        }
    }

    @Test("GET lists only the caller's own items, with or without a trailing slash")
    func ownItems() async throws {
        try await ServerHarness.run { harness in
            let ana = try await harness.wearableUser("ana")
            let bob = try await harness.wearableUser("bob")
            _ = try await harness.postDataItem(WearableClientPayloads.esp32(bpm: 70, temperature: 36.6), token: ana)
            _ = try await harness.postDataItem(WearableClientPayloads.esp32(bpm: 90, temperature: 36.6), token: bob)
            _ = try await harness.postDataItem(WearableClientPayloads.esp32(bpm: 71, temperature: 36.6), token: ana)
            let mine = try await harness.request(.get, "/Api/DataItem/", token: ana)
            #expect(mine.status == .ok)
            #expect(mine.array?.compactMap { ($0 as? [String: Any])?["heartBpm"] as? Double } == [70, 71])
            #expect(try await harness.request(.get, "/api/dataitem", token: bob).array?.count == 1)
            #expect(try await harness.request(.get, "/Api/DataItem").status == .unauthorized)
        }
    }

    @Test("DELETE removes one's own item and its samples; another's is 403, an unknown one 404; an admin may delete any")
    func delete() async throws {
        try await ServerHarness.run { harness in
            let ana = try await harness.wearableUser("ana")
            let bob = try await harness.wearableUser("bob")
            let admin = try await harness.wearableLogin("admin")
            _ = try await harness.postDataItem(WearableClientPayloads.esp32(bpm: 70, temperature: 36.6), token: ana)
            _ = try await harness.postDataItem(WearableClientPayloads.esp32(bpm: 72, temperature: 36.7), token: ana)
            #expect(try await harness.samples(.heartRate, of: "wearable-ana").count == 2)
            #expect(try await harness.request(.delete, "/Api/DataItem/1", token: bob).status == .forbidden)
            #expect(try await harness.request(.delete, "/Api/DataItem/1", token: ana).status == .noContent)
            #expect(try await harness.samples(.heartRate, of: "wearable-ana").compactMap(\.canonicalValue) == [72])
            #expect(try await harness.samples(.bodyTemperature, of: "wearable-ana").count == 1)
            #expect(try await harness.request(.delete, "/Api/DataItem/1", token: ana).status == .notFound)
            #expect(try await harness.request(.delete, "/Api/DataItem/2", token: admin).status == .noContent)
            #expect(try await harness.request(.get, "/Api/DataItem", token: ana).array?.isEmpty == true)
            #expect(try await harness.samples(.heartRate, of: "wearable-ana").isEmpty)
        }
    }

    @Test("getProjectDataWithUser answers an item with its owner's name, to its owner and admins only")
    func itemWithUser() async throws {
        try await ServerHarness.run { harness in
            try await harness.registerWearable("ana", name: "Ana Pop")
            let ana = try await harness.wearableLogin("ana")
            let bob = try await harness.wearableUser("bob")
            let admin = try await harness.wearableLogin("admin")
            _ = try await harness.postDataItem(WearableClientPayloads.watch(heartBpm: 64, latitude: 1, longitude: 2, steps: 5, distance: 3), token: ana)
            for token in [ana, admin] {
                let response = try await harness.request(.get, "/Api/DataItem/getProjectDataWithUser/1", token: token)
                #expect(response.status == .ok)
                #expect(response.object?["name"] as? String == "Ana Pop")
                #expect(response.object?["heartBpm"] as? Double == 64)
                #expect(response.object?["gpsCoordinates"] as? String == "1.0 2.0")
            }
            #expect(try await harness.request(.get, "/Api/DataItem/getProjectDataWithUser/1", token: bob).status == .forbidden)
            #expect(try await harness.request(.get, "/Api/DataItem/getProjectDataWithUser/9", token: admin).status == .notFound)
            #expect(try await harness.request(.get, "/Api/DataItem/1", token: ana).object?["name"] == nil)
        }
    }
}
