import Foundation

/// Reads the MavHome project's MavPad 2005 data set (Youngblood and Cook, IEEE SMC-C 2007):
/// one file a day, `M-D-YYYY-RAW.data`, each a PostgreSQL table dump —
/// `mark | zone | number | state | level | source | info` under a header and a rule line,
/// with a `(N rows)` footer. `zone` and `number` name the sensor (`S17`): zone `S` is
/// motion, `V` doors, `a`, `c` and `i` lights switched by the resident; `state` is 1 or 0.
///
/// The apartment's sensor map is not part of the release: without a map each zone is a
/// room of its own. The release's day files are not all days: some are empty (nothing
/// was recorded) and some repeat an earlier day event for event, a week or two later;
/// a repeat is left out, and said so in ``HomeDataSet/notes``.
public enum MavPadReader {
    /// The zones' kinds and rooms.
    static let zones: [String: (kind: DeviceKind, room: String)] = [
        "S": (.motion, "Zone S (motion)"), "V": (.contact, "Zone V (doors)"),
        "a": (.switchSensor, "Zone a (lights)"), "c": (.switchSensor, "Zone c (lights)"), "i": (.switchSensor, "Zone i (lights)"),
    ]

    /// Reads `files` (name, text: the day files) into a data set for a flat named `name`;
    /// `map` places sensors in rooms of the user's (its room names become the plan's).
    /// Throws at the first bad line, naming its file and line.
    public static func read(
        files: [(name: String, text: String)], name: String, map userMap: CASASDeviceMap = CASASDeviceMap(),
        timeZone: String = HomeDataSet.Format.mavpad.timeZone
    ) throws(HomeDataSetError) -> HomeDataSet {
        let calendar = HomeDataSet.calendar(timeZone)
        var days: [(file: String, lines: [CASASLine])] = []
        for file in files.sorted(by: { $0.name < $1.name }) {
            do {
                let lines = try parse(file.text, calendar: calendar)
                if !lines.isEmpty { days.append((file.name, lines)) }
            } catch {
                throw .inFile(file.name, error)
            }
        }
        days.sort { ($0.lines.first?.time ?? .distantPast) < ($1.lines.first?.time ?? .distantPast) }
        var kept: [(file: String, lines: [CASASLine])] = [], notes: [String] = []
        for day in days {
            if let original = kept.first(where: { repeats(day.lines, $0.lines) }) {
                notes.append("\(day.file) repeats \(original.file) event for event, \(Int((day.lines[0].time.timeIntervalSince(original.lines[0].time) / 86400).rounded())) days later: left out")
            } else {
                kept.append(day)
            }
        }
        let lines = kept.flatMap(\.lines)
        guard !lines.isEmpty else { throw .reading(.empty) }
        var map = CASASDeviceMap(), roomNames: [String] = []
        for sensor in Set(lines.map(\.sensor)).sorted() {
            let zone = zones[String(sensor.prefix(1))]
            let room = userMap.sensors[sensor]?.room ?? zone?.room ?? "Unknown"
            map.sensors[sensor] = CASASDeviceMap.Sensor(kind: userMap.sensors[sensor]?.kind ?? zone?.kind.rawValue, room: room)
            if !roomNames.contains(room) { roomNames.append(room) }
        }
        let plan = HomeDataSet.plan(name: name, timeZone: timeZone, rooms: roomNames.map { ($0, RoomType.named($0)) })
        return HomeDataSet(lines: lines, map: map, plan: plan, notes: notes)
    }

    /// The readings of one day file, oldest first. Read as bytes: the release is 400,000 lines.
    static func parse(_ text: String, calendar: Calendar) throws(CASASError) -> [CASASLine] {
        var clock = DayClock(calendar: calendar)
        var lines: [CASASLine] = []
        let bytes = Array(text.utf8)
        var number = 0
        for raw in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            number += 1
            let fields = raw.split(separator: UInt8(ascii: "|"), omittingEmptySubsequences: false).map(DayClock.trimmed)
            // The header's rule, the footer, blank lines; then the header.
            if fields.count == 1, let first = fields.first, first.isEmpty || first.first == UInt8(ascii: "-") || first.first == UInt8(ascii: "(") { continue }
            if fields.first?.elementsEqual("mark".utf8) == true { continue }
            guard fields.count == 7 else {
                throw .badLine(line: number, reason: "expected mark | zone | number | state | level | source | info, found \(fields.count) fields")
            }
            guard let time = clock.time(fields[0]) else {
                throw .badLine(line: number, reason: "\(DayClock.text(fields[0]).debugDescription) is not a time (YYYY-MM-DD HH:MM:SS)")
            }
            let zone = DayClock.text(fields[1])
            guard zones[zone] != nil else {
                throw .badLine(line: number, reason: "zone \(zone.debugDescription) is none of \(zones.keys.sorted().joined(separator: ", "))")
            }
            guard let sensor = DayClock.number(fields[2]) else {
                throw .badLine(line: number, reason: "sensor number \(DayClock.text(fields[2]).debugDescription) is not a number")
            }
            guard let state = DayClock.number(fields[3]), state <= 1 else {
                throw .badLine(line: number, reason: "state \(DayClock.text(fields[3]).debugDescription) is neither 0 nor 1")
            }
            lines.append(CASASLine(line: number, time: time, sensor: "\(zone)\(sensor)", value: Double(state)))
        }
        return lines.sorted { ($0.time, $0.line) < ($1.time, $1.line) }
    }

    /// Whether `day` is `original` again, shifted by whole days: the same sensors, states and times of day.
    static func repeats(_ day: [CASASLine], _ original: [CASASLine]) -> Bool {
        guard day.count == original.count, let first = day.first, let originalFirst = original.first else { return false }
        let shift = first.time.timeIntervalSince(originalFirst.time)
        guard shift > 0, shift.truncatingRemainder(dividingBy: 86400) == 0 else { return false }
        return zip(day, original).allSatisfy { $0.sensor == $1.sensor && $0.value == $1.value && $0.time.timeIntervalSince($1.time) == shift }
    }
}

/// Why a data set of several files cannot be read.
public enum HomeDataSetError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A file has a bad line.
    case inFile(String, CASASError)
    /// The data set as a whole.
    case reading(CASASError)

    public var description: String {
        switch self {
        case .inFile(let file, let error): "\(file): \(error)"
        case .reading(let error): "\(error)"
        }
    }
}

extension RoomType {
    /// The type a room's name suggests (`Bedroom 2` is a bedroom), else `other`.
    static func named(_ name: String) -> RoomType {
        let lowered = name.lowercased()
        let types: [(String, RoomType)] = [
            ("bed", .bedroom), ("bath", .bathroom), ("toilet", .bathroom), ("kitchen", .kitchen), ("living", .livingRoom),
            ("lounge", .livingRoom), ("hall", .hall), ("entrance", .hall),
        ]
        return types.first { lowered.contains($0.0) }?.1 ?? .other
    }
}
