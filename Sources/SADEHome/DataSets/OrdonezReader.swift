import Foundation

/// Reads the UCI "Activities of Daily Living (ADLs) Recognition Using Binary Sensors" data
/// set (Ordóñez, de Toledo, Sanchis, Sensors 2013): `*_Sensors.txt`, one interval a line,
/// `start  end  location  type  place`, tab-separated under a header; `*_ADLs.txt`,
/// `start  end  activity`. Rows may carry extra tabs and spaces around a time.
///
/// Each interval is two readings: on at its start, off at its end. A sensor is named by
/// its location (`Bed`), or by location and place where one location is in several places
/// (`Door_Kitchen`). PIR is motion, magnetic a door contact (the entrance's is the way
/// out), pressure (bed, seat) occupancy, flush and electric an appliance used.
public enum OrdonezReader {
    /// The rooms the data set's places are.
    static let rooms: [String: RoomType] = [
        "Bedroom": .bedroom, "Bathroom": .bathroom, "Kitchen": .kitchen, "Living": .livingRoom, "Entrance": .hall,
    ]

    /// The sensors' types and the kinds they are.
    static let kinds: [String: DeviceKind] = [
        "PIR": .motion, "Magnetic": .contact, "Pressure": .occupancy, "Flush": .usage, "Electric": .usage,
    ]

    /// Reads `sensors` (and the annotations in `activities`, if given) into a data set for
    /// a flat named `name`. Throws at the first bad line, naming it.
    public static func read(sensors: String, activities: String? = nil, name: String, timeZone: String = HomeDataSet.Format.ordonez.timeZone) throws(CASASError)
        -> HomeDataSet
    {
        let calendar = HomeDataSet.calendar(timeZone)
        var intervals: [(line: Int, start: Date, end: Date, location: String, type: String, place: String)] = []
        for (number, fields) in rows(sensors) {
            guard fields.count == 5 else {
                throw .badLine(line: number, reason: "expected start, end, location, type, place (tab-separated), found \(fields.count) fields")
            }
            let (start, end) = try interval(fields[0], fields[1], line: number, calendar: calendar)
            let type = String(fields[3]), place = String(fields[4])
            guard kinds[type] != nil else {
                throw .badLine(line: number, reason: "sensor type \(type.debugDescription) is none of \(kinds.keys.sorted().joined(separator: ", "))")
            }
            guard rooms[place] != nil else {
                throw .badLine(line: number, reason: "place \(place.debugDescription) is none of \(rooms.keys.sorted().joined(separator: ", "))")
            }
            intervals.append((number, start, end, String(fields[2]), type, place))
        }
        guard !intervals.isEmpty else { throw .empty }
        let places = Dictionary(grouping: intervals, by: \.location).mapValues { Set($0.map(\.place)) }
        func sensor(_ location: String, _ place: String) -> String {
            let name = (places[location]?.count ?? 0) > 1 ? "\(location)_\(place)" : location
            return String(name.unicodeScalars.filter { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_") })
        }
        var map = CASASDeviceMap(), lines: [CASASLine] = []
        for interval in intervals {
            let name = sensor(interval.location, interval.place)
            guard !name.isEmpty else { throw .badLine(line: interval.line, reason: "location \(interval.location.debugDescription) has no letters or digits") }
            map.sensors[name] = CASASDeviceMap.Sensor(kind: kinds[interval.type]?.rawValue, room: interval.place)
            lines.append(CASASLine(line: interval.line, time: interval.start, sensor: name, value: 1))
            lines.append(CASASLine(line: interval.line, time: interval.end, sensor: name, value: 0))
        }
        lines.sort { ($0.time, $0.line, $1.value) < ($1.time, $1.line, $0.value) }
        let used = Set(intervals.map(\.place))
        let plan = HomeDataSet.plan(
            name: name, timeZone: timeZone,
            rooms: ["Entrance", "Kitchen", "Living", "Bedroom", "Bathroom"].filter(used.contains).map { ($0, rooms[$0] ?? .other) })
        var annotated: [String: [DateInterval]] = [:]
        if let activities { annotated = try annotations(activities, calendar: calendar).episodes }
        return HomeDataSet(lines: lines, map: map, plan: plan, activities: annotated)
    }

    /// The annotated activities of an `*_ADLs.txt` file: label → episodes; and what was
    /// left out: the release has rows that end before they start (typing slips, such as
    /// 19:28 to 16:29), which are named and skipped rather than guessed at.
    public static func annotations(_ text: String, calendar: Calendar) throws(CASASError) -> (episodes: [String: [DateInterval]], skipped: [String]) {
        var episodes: [String: [DateInterval]] = [:], skipped: [String] = []
        for (number, fields) in rows(text) {
            guard fields.count == 3 else { throw .badLine(line: number, reason: "expected start, end, activity (tab-separated), found \(fields.count) fields") }
            do {
                let (start, end) = try interval(fields[0], fields[1], line: number, calendar: calendar)
                episodes[String(fields[2]), default: []].append(DateInterval(start: start, end: end))
            } catch .badLine(_, let reason) where reason.hasPrefix("the interval ends") {
                skipped.append("line \(number) (\(fields[2])): \(reason)")
            }
        }
        return (episodes, skipped)
    }

    /// The data rows of `text` with their line numbers, fields trimmed, empty ones dropped;
    /// the header (a first field that is not a date) and blank lines skipped.
    static func rows(_ text: String) -> [(Int, [Substring])] {
        var rows: [(Int, [Substring])] = []
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let fields = raw.split(separator: "\t").map { $0.trimmingCharacters(in: .whitespacesAndNewlines.union(["\u{FEFF}"]))[...] }.filter { !$0.isEmpty }
            guard let first = fields.first else { continue }
            if index < 2, first.first?.isNumber != true { continue }  // the header
            rows.append((index + 1, fields))
        }
        return rows
    }

    static func interval(_ from: Substring, _ to: Substring, line: Int, calendar: Calendar) throws(CASASError) -> (Date, Date) {
        guard let start = HomeDataSet.time(from, calendar: calendar) else { throw .badLine(line: line, reason: "\(from.debugDescription) is not a time (YYYY-MM-DD HH:MM:SS)") }
        guard let end = HomeDataSet.time(to, calendar: calendar) else { throw .badLine(line: line, reason: "\(to.debugDescription) is not a time (YYYY-MM-DD HH:MM:SS)") }
        guard end >= start else { throw .badLine(line: line, reason: "the interval ends (\(to)) before it starts (\(from))") }
        return (start, end)
    }
}
