import Foundation
import SADEHome
import Testing
@testable import SADEServer

extension OpenAPIConformanceTests {
    /// The smart homes: a flat created, read, changed; a gateway's batch (and a bad one);
    /// the alarm it raises listed and confirmed (twice); typical errors.
    static func homes(_ log: inout AnswerLog, ward: AdminWard) async throws {
        let harness = log.harness
        let flat = #"""
            {"name": "Flat 7", "resident": "patient-01", "carers": ["nurse1"], "time_zone": "Europe/Lisbon",
             "inactivity": {"continuous_hours": 12, "windows": [{"start": "07:00", "end": "10:00"}]},
             "rooms": [{"name": "Kitchen", "type": "kitchen", "polygon": [[0, 0], [4, 0], [4, 3], [0, 3]], "doors": [{"x": 0, "y": 1.5}],
                        "devices": [{"name": "Kitchen motion", "kind": "motion", "x": 1, "y": 1, "battery_powered": true},
                                    {"name": "Kettle", "kind": "usage", "x": 3, "y": 0.5}]},
                       {"name": "Bathroom", "type": "bathroom", "polygon": [[4, 0], [7, 0], [7, 3], [4, 3]],
                        "devices": [{"name": "Fall detector", "kind": "fall", "x": 5, "y": 1, "object_id": "bathroom_fall"}]}]}
            """#
        let created = try await log.call(.post, "/api/v1/homes", token: ward.admin, raw: flat)
        let id = try #require((created.object?["id"] as? NSNumber)?.int64Value, "\(created.text)")
        try await log.call(.post, "/api/v1/homes", token: ward.nurse1, raw: flat)
        try await log.call(.post, "/api/v1/homes", token: ward.admin, raw: #"{"name": "No rooms", "rooms": []}"#)
        try await log.call(.get, "/api/v1/homes", token: ward.nurse1)
        try await log.call(.get, "/api/v1/homes/{id}", "/api/v1/homes/\(id)", token: ward.nurse1)
        try await log.call(.get, "/api/v1/homes/{id}", "/api/v1/homes/\(id)", token: ward.nurse2)
        try await log.call(.get, "/api/v1/homes/{id}", "/api/v1/homes/999", token: ward.admin)
        try await log.call(.patch, "/api/v1/homes/{id}", "/api/v1/homes/\(id)", token: ward.admin, raw: #"{"carers": ["nurse1", "doctor1"]}"#)
        try await log.call(.patch, "/api/v1/homes/{id}", "/api/v1/homes/\(id)", token: ward.admin, raw: #"{"time_zone": "Atlantis/Capital"}"#)

        let fall = try #require(try await harness.system.homeStore.flat(id).device(entityID: "binary_sensor.bathroom_fall")?.id)
        let messages = harness.system.home.events.subscribe(flats: [id])
        let now = harness.system.now()
        let iso = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        let events = "/api/v1/homes/{id}/events"
        try await log.call(.post, events, "/api/v1/homes/\(id)/events", token: ward.device, raw: """
            {"events": [{"device_id": \(fall), "value": 0, "battery": 90, "time": "\(iso.format(now.addingTimeInterval(-2)))"},
                        {"device_id": \(fall), "value": 1, "battery": 90, "time": \(Int64(now.timeIntervalSince1970 * 1000))}]}
            """)
        try await log.call(.post, events, "/api/v1/homes/\(id)/events", token: ward.device, raw: """
            {"events": [{"device_id": \(fall), "value": 1, "time": "\(iso.format(now.addingTimeInterval(3600)))"}]}
            """)
        try await log.call(.post, events, "/api/v1/homes/\(id)/events", token: ward.nurse1, raw: #"{"events": []}"#)
        for await event in messages { if case .message = event { break } }  // the home agent raised the fall alarm

        let list = try await log.call(.get, "/api/v1/homes/{id}/messages", "/api/v1/homes/\(id)/messages?state=all", token: ward.nurse1)
        try await log.call(.get, "/api/v1/homes/{id}/messages", "/api/v1/homes/\(id)/messages?state=maybe", token: ward.nurse1)
        let alarm = try #require(((list.array?.first as? [String: Any])?["id"] as? NSNumber)?.int64Value, "\(list.text)")
        let confirm = "/api/v1/homes/{id}/messages/{message}/confirm"
        try await log.call(.post, confirm, "/api/v1/homes/\(id)/messages/\(alarm)/confirm", token: ward.nurse1)
        try await log.call(.post, confirm, "/api/v1/homes/\(id)/messages/\(alarm)/confirm", token: ward.nurse1)
        try await log.call(.post, confirm, "/api/v1/homes/\(id)/messages/404/confirm", token: ward.nurse1)
        let one = "/api/v1/homes/{id}/messages/{message}"
        let confirmed = try await log.call(.get, one, "/api/v1/homes/\(id)/messages/\(alarm)", token: ward.nurse1)
        let escalation = try #require(confirmed.object?["escalation"] as? [String: Any], "\(confirmed.text)")
        #expect(escalation["escalating"] as? Bool == false && escalation["acknowledged_by"] as? String == "nurse1", "\(escalation)")
        try await log.call(.get, one, "/api/v1/homes/\(id)/messages/404", token: ward.nurse1)
        try await log.call(.get, one, "/api/v1/homes/\(id)/messages/\(alarm)", token: ward.nurse2)
        let activity = "/api/v1/homes/{id}/activity"
        let days = try await log.call(.get, activity, "/api/v1/homes/\(id)/activity?days=7", token: ward.nurse1)
        #expect((days.object?["days"] as? [Any])?.count == 7, "\(days.text.prefix(300))")
        try await log.call(.get, activity, "/api/v1/homes/\(id)/activity?days=1", token: ward.nurse1)
    }
}
