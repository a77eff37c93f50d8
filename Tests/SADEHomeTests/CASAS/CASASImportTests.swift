import Foundation
import SADEHome
import SADEHomeSQLite
import SADETestTiming
import Testing

@Suite("CASAS import", .timeLimit(.minutes(5)), .timed)
struct CASASImportTests {
    static let sample = """
        # a few lines in the format of the WSU CASAS datasets
        2010-11-04 00:03:50.209589 M003 ON Sleeping begin
        2010-11-04 00:03:57.399391\tM003\tOFF
        2010-11-04 05:40:43.642664 T002 21.5
        2010-11-04 05:40:51.303739 M004 ON
        2010-11-04 05:41:00 D001 OPEN
        2010-11-04 05:41:01.5 D001 CLOSE
        2010-11-04 06:00:00.000001 M003 OFF Sleeping end
        2010-11-04 07:10:00 LS001 120
        """

    static func flat(in store: SQLiteHomeStore) async throws -> Flat {
        try await store.createFlat(FlatPlan(name: "CASAS flat", timeZone: "America/Los_Angeles", rooms: [
            RoomPlan(name: "Bedroom", type: .bedroom, polygon: [.init(x: 0, y: 0), .init(x: 3, y: 0), .init(x: 3, y: 3)]),
            RoomPlan(name: "Kitchen", type: .kitchen, polygon: [.init(x: 3, y: 0), .init(x: 6, y: 0), .init(x: 6, y: 3)]),
        ]))
    }

    @Test("lines with fractions, tabs, activities and numbers are read in the flat's time zone")
    func parses() throws {
        let lines = try CASASReader.parse(Self.sample, timeZone: try #require(TimeZone(identifier: "America/Los_Angeles")))
        #expect(lines.count == 8)
        #expect(lines[0] == CASASLine(line: 2, time: lines[0].time, sensor: "M003", value: 1, activity: "Sleeping", begins: true))
        #expect(abs(lines[0].time.timeIntervalSince1970 - 1_288_854_230.209589) < 0.000_01, "00:03:50.209589 PDT")
        #expect(lines[1].sensor == "M003" && lines[1].value == 0)
        #expect(lines[2].value == 21.5 && lines[4].value == 1 && lines[5].value == 0)
        #expect(lines[6].activity == "Sleeping" && !lines[6].begins)
    }

    @Test("a bad line is named and nothing of the file is imported")
    func badLines() async throws {
        let store = try SQLiteHomeStore(path: nil)
        let flat = try await Self.flat(in: store)
        let cases: [(String, CASASError)] = [
            ("2010-11-04 00:03:50 M003 ON\n2010-11-04 25:61:00 M003 OFF", .badLine(line: 2, reason: "2010-11-04 25:61:00 is not a valid date and time (YYYY-MM-DD HH:MM:SS[.ffffff])")),
            ("2010-11-04 00:03:50 M003 MAYBE", .badLine(line: 1, reason: #"value "MAYBE" of M003 is neither ON/OFF/OPEN/CLOSE nor a number"#)),
            ("2010-11-04 00:03:50 M003", .badLine(line: 1, reason: "expected DATE TIME SENSOR VALUE [ACTIVITY begin|end], found 3 fields")),
            ("2010-11-04 00:03:50 M003 ON Sleeping start", .badLine(line: 1, reason: "the activity Sleeping must be followed by begin or end, not start")),
            ("2010-02-30 00:03:50 M003 ON", .badLine(line: 1, reason: "2010-02-30 is not a day of the calendar")),
            ("\n# only a comment\n", .empty),
            ("2010-11-04 00:03:50 M003 ON\n2010-11-04 00:04:00 LS001 120", .unknownSensor(line: 2, sensor: "LS001")),
        ]
        for (text, error) in cases {
            await #expect(throws: error) { _ = try await CASASImport(store: store).run(text, flat: flat.id) }
        }
        let after = try await store.flat(flat.id)
        #expect(after.devices.isEmpty, "no device added")
        #expect(try await store.lastActivity(flat: flat.id) == nil, "no event recorded")
    }

    @Test("an import adds the flat's missing sensors as devices, records every event and keeps the activity episodes")
    func imports() async throws {
        let store = try SQLiteHomeStore(path: nil)
        let flat = try await Self.flat(in: store)
        let map = try JSONDecoder().decode(CASASDeviceMap.self, from: Data(#"{"sensors": {"LS001": {"kind": "brightness", "room": "Kitchen"}, "M004": {"room": "Kitchen"}}}"#.utf8))
        let summary = try await CASASImport(store: store, map: map).run(Self.sample, flat: flat.id)
        #expect(summary.events == 8)
        #expect(summary.devicesAdded == ["D001", "LS001", "M003", "M004", "T002"])
        #expect(summary.activities["Sleeping"]?.count == 1)
        #expect(summary.activities["Sleeping"]?.first?.duration ?? 0 > 5.9 * 3600)
        let imported = try await store.flat(flat.id)
        let kitchen = try #require(imported.rooms.first { $0.name == "Kitchen" }?.id)
        #expect(imported.device(entityID: "sensor.ls001")?.kind == .brightness)
        #expect(imported.device(entityID: "binary_sensor.m004")?.room == kitchen)
        #expect(imported.device(entityID: "binary_sensor.m003")?.room == imported.rooms[0].id, "unmapped sensors go to the first room")
        #expect(imported.device(entityID: "binary_sensor.d001")?.kind == .contact)
        let motion = try #require(imported.device(entityID: "binary_sensor.m004")?.id)
        let lines = try CASASReader.parse(Self.sample, timeZone: try #require(TimeZone(identifier: "America/Los_Angeles")))
        let opened = try #require(lines.first { $0.sensor == "D001" && $0.value == 1 })
        #expect(try await store.lastActivity(flat: flat.id) == opened.time, "the door opened last; closing is no activity")
        #expect(try await store.history(device: motion, from: summary.period.start, to: summary.period.end, limit: nil).map(\.value) == [1])
        let again = try await CASASImport(store: store, map: map).run(Self.sample, flat: flat.id)
        #expect(again.devicesAdded.isEmpty, "a second import finds the devices")
    }
}

extension CASASImportTests {
    @Test("a sensor name that cannot be an object id, or a map naming an unknown kind or room, imports nothing")
    func badNamesAndMaps() async throws {
        let store = try SQLiteHomeStore(path: nil)
        let flat = try await Self.flat(in: store)
        await #expect(throws: CASASError.badLine(line: 2, reason: #"sensor name "M-01" must be ASCII letters, digits or _"#)) {
            _ = try await CASASImport(store: store).run("2010-11-04 00:03:50 M003 ON\n2010-11-04 00:03:51 M-01 ON", flat: flat.id)
        }
        let typo = CASASDeviceMap(sensors: ["LS001": .init(kind: "brightnes", room: "Kitchen")])
        await #expect(throws: HomeError.invalidValue(field: "map.sensors.LS001.kind", reason: #""brightnes" is not a device kind"#)) {
            _ = try await CASASImport(store: store, map: typo).run(Self.sample, flat: flat.id)
        }
        let room = CASASDeviceMap(sensors: ["M003": .init(kind: nil, room: "Kitchn")])
        await #expect(throws: HomeError.invalidValue(field: "map.sensors.M003.room", reason: #"flat \#(flat.id) has no room "Kitchn" (it has Bedroom, Kitchen)"#)) {
            _ = try await CASASImport(store: store, map: room).run(Self.sample, flat: flat.id)
        }
        #expect(try await store.flat(flat.id).devices.isEmpty, "no device added")
    }
}
