import ArgumentParser
import Foundation
import SADEHome
import SADEHomeSQLite

/// `sade home import`: a CASAS dataset into a flat, either straight into a data
/// directory's home store or replayed against a running server as its gateway would.
struct HomeImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import a smart-home data set (CASAS, Ordóñez, MavPad) into a flat, or replay a CASAS file against a running server.",
        discussion: """
            --format casas (the default): lines YYYY-MM-DD HH:MM:SS[.ffffff] SENSOR VALUE [ACTIVITY begin|end]. M… sensors \
            are motion, D… door contacts, T… temperatures; --map names the others and their rooms: {"sensors": {"LS001": \
            {"kind": "brightness", "room": "Kitchen"}}}. --format ordonez: a *_Sensors.txt file of the UCI ADL data set \
            (Ordóñez et al.), its rooms from the places it names. --format mavpad: the MavPad 2005 release (its .tar.gz, or \
            a directory of its day files), one room per zone unless --map places the sensors. Every line is checked first: \
            a bad one is named and nothing is imported. \
            With --data the events go into DIR/home.sqlite, with --database into the PostgreSQL database sade serve \
            --database nodes share (devices the flat lacks are added); an Ordóñez or MavPad import without --flat or --plan \
            creates a flat from the data set's rooms. With --replay they are posted \
            to --server as they would have happened, --speed times faster, stamped with today's times; the flat must have \
            a device whose object id is each sensor's name in lower case (import once with --data, or add them).
            """
    )

    @Argument(help: "The data set: a CASAS file, an Ordóñez *_Sensors.txt, the MavPad .tar.gz or a directory of its day files.")
    var file: String

    @Option(help: "The data set's format: casas, ordonez or mavpad.")
    var format: DataSetFormat = .casas

    @Option(help: "A new flat's name (default: the file's name).")
    var name: String?

    @Option(help: "A new flat's time zone (default: where the data set was recorded: UTC for CASAS, Europe/Madrid for Ordóñez, America/Chicago for MavPad).")
    var timeZone: String?

    @Option(help: "The flat's id.")
    var flat: Int64?

    @Option(help: "With --data or --database: create a new flat from this JSON floor plan (as sade home evaluate --out writes) and import into it.")
    var plan: String?

    @OptionGroup var homes: HomeStoreOptions

    @Option(help: "A JSON device map for sensors other than M…, D…, T… (and their rooms).")
    var map: String?

    @Flag(help: "Post the events to a running server instead, as they would have happened.")
    var replay = false

    @Option(help: "How much faster than the file's clock to replay.")
    var speed: Double = 60

    @OptionGroup var connection: HomeServerOptions

    func validate() throws {
        guard replay != homes.isGiven else { throw ValidationError("give either --data DIR or --database URL (import), or --replay (against --server)") }
        guard flat == nil || plan == nil else { throw ValidationError("give either --flat ID or --plan FILE (a new flat), not both") }
        guard flat != nil || plan != nil || (format.value != .casas && !replay) else {
            throw ValidationError("give either --flat ID or --plan FILE (a new flat); an Ordóñez or MavPad import may also create one from its rooms")
        }
        guard map == nil || format.value != .ordonez else { throw ValidationError("--map goes with --format casas or mavpad: an Ordóñez file names its rooms") }
        guard !replay || format.value == .casas else { throw ValidationError("--replay posts CASAS files; import other formats with --data or --database") }
        if let timeZone, TimeZone(identifier: timeZone) == nil { throw ValidationError("--time-zone \(timeZone) is not a time zone (e.g. Europe/Madrid)") }
        guard plan == nil || homes.isGiven else { throw ValidationError("--plan creates the flat in --data DIR or --database URL; for --replay create it on the server") }
        guard speed > 0, speed <= 1_000_000 else { throw ValidationError("--speed must be above 0, at most 1000000") }
    }

    func run() async throws {
        if format.value != .casas { return try await importDataSet() }
        let text: String
        do { text = try String(contentsOfFile: file, encoding: .utf8) } catch { throw ValidationError("cannot read \(file): \(error.localizedDescription)") }
        let deviceMap = try map.map { path in try JSONDecoder().decode(CASASDeviceMap.self, from: Data(contentsOf: URL(fileURLWithPath: path))) }
            ?? CASASDeviceMap()
        do {
            if homes.isGiven {
                let (store, close) = try await homes.open(mustExist: false)
                do {
                    try await importing(text, map: deviceMap, into: store)
                } catch {
                    await close()
                    throw error
                }
                await close()
            } else {
                try await CASASReplay(connection: connection, flat: flat ?? 0, speed: speed).run(text)
            }
        } catch let error as CASASError {
            throw ValidationError("\(file): \(error)")
        }
    }

    /// Reads an Ordóñez or MavPad data set and imports it into the flat (made from --plan, or from the data's rooms).
    private func importDataSet() async throws {
        let started = ContinuousClock.now
        let userMap = try map.map { path in try JSONDecoder().decode(CASASDeviceMap.self, from: Data(contentsOf: URL(fileURLWithPath: path))) }
        let flatName = name ?? URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
        let zone = timeZone ?? format.value.timeZone
        let data: HomeDataSet
        do {
            switch format.value {
            case .ordonez:
                data = try OrdonezReader.read(sensors: try Self.read(file), name: flatName, timeZone: zone)
            case .mavpad:
                let files = try await DataSetFiles.dayFiles(file)
                data = try MavPadReader.read(files: files, name: flatName, map: userMap ?? CASASDeviceMap(), timeZone: zone)
            case .casas:
                return
            }
        } catch let error as CASASError {
            throw ValidationError("\(file): \(error)")
        } catch let error as HomeDataSetError {
            throw ValidationError("\(file): \(error)")
        }
        let read = ContinuousClock.now - started
        for note in data.notes { print("note: \(note)") }
        let (store, close) = try await homes.open(mustExist: false)
        do {
            var id = flat ?? 0
            if flat == nil {
                var floorPlan = data.plan
                if let plan {
                    do { floorPlan = try JSONDecoder().decode(FlatPlan.self, from: Data(contentsOf: URL(fileURLWithPath: plan))) } catch {
                        throw ValidationError("cannot read the floor plan \(plan): \(error.localizedDescription)")
                    }
                }
                try CASASImport.check(data.map, rooms: floorPlan.rooms.map(\.name), flat: "the plan \(plan ?? floorPlan.name)")
                id = try await store.createFlat(floorPlan).id
                print("created flat \(id) (\(floorPlan.name)) with rooms \(floorPlan.rooms.map(\.name).joined(separator: ", "))")
            }
            let summary = try await CASASImport(store: store, map: data.map).run(lines: data.lines, flat: id)
            let elapsed = ContinuousClock.now - started
            print("imported \(summary.events) events into flat \(id) (\(summary.period.start.formatted(.iso8601)) … \(summary.period.end.formatted(.iso8601))) in \(Self.seconds(elapsed)) (reading \(Self.seconds(read)))")
            if !summary.devicesAdded.isEmpty { print("added devices: \(summary.devicesAdded.joined(separator: ", "))") }
        } catch {
            await close()
            throw error
        }
        await close()
    }

    static func read(_ path: String) throws -> String {
        do { return try String(contentsOfFile: path, encoding: .utf8) } catch { throw ValidationError("cannot read \(path): \(error.localizedDescription)") }
    }

    static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return String(format: "%.2f s", Double(seconds) + Double(attoseconds) / 1e18)
    }

    /// Imports the file's events into the flat (made first from --plan).
    private func importing(_ text: String, map deviceMap: CASASDeviceMap, into store: any HomeStore) async throws {
        var flat = self.flat ?? 0
        if let plan {
            let floorPlan: FlatPlan
            do { floorPlan = try JSONDecoder().decode(FlatPlan.self, from: Data(contentsOf: URL(fileURLWithPath: plan))) } catch {
                throw ValidationError("cannot read the floor plan \(plan): \(error is DecodingError ? "not a flat plan (name, rooms: [{name, type, polygon}])" : error.localizedDescription)")
            }
            flat = try await store.createFlat(floorPlan).id
            print("created flat \(flat) (\(floorPlan.name))")
        }
        let summary = try await CASASImport(store: store, map: deviceMap).run(text, flat: flat)
        print("imported \(summary.events) events into flat \(flat) (\(summary.period.start.formatted(.iso8601)) … \(summary.period.end.formatted(.iso8601)))")
        if !summary.devicesAdded.isEmpty { print("added devices: \(summary.devicesAdded.joined(separator: ", "))") }
        for (label, episodes) in summary.activities.sorted(by: { $0.key < $1.key }) { print("activity \(label): \(episodes.count) episode(s)") }
    }
}

/// Posts a CASAS file's events to a running server as the flat's gateway, as they would
/// have happened: the file's first event now, the others `speed` times sooner than in the file.
struct CASASReplay {
    let connection: HomeServerOptions
    let flat: Int64
    let speed: Double

    func run(_ text: String) async throws {
        let gateway = try await HomeGateway.connect(connection, flat: flat, label: "CASAS replay")
        let plan = gateway.flat
        let lines = try CASASReader.parse(text, timeZone: TimeZone(identifier: plan.timeZone) ?? .gmt)
        let devices = Dictionary(plan.devices.map { ($0.objectID, $0.id) }, uniquingKeysWith: { first, _ in first })
        let missing = Set(lines.map(\.sensor).filter { devices[$0.lowercased()] == nil }).sorted()
        guard missing.isEmpty else { throw SimulationError("flat \(flat) has no device for \(missing.joined(separator: ", ")): import the file with --data first") }
        let sorted = lines.sorted { $0.time < $1.time }
        guard let first = sorted.first?.time else { return }
        let start = Date()
        let replayed = { (line: CASASLine) in start.addingTimeInterval(line.time.timeIntervalSince(first) / speed) }
        print("replaying \(sorted.count) events into \(plan.name) at \(speed)×")
        var next = 0
        while next < sorted.count {
            let due = sorted[next...].prefix { replayed($0) <= Date() }.prefix(1000)
            guard !due.isEmpty else {
                try await Task.sleep(for: .milliseconds(Int64(max(1, min(replayed(sorted[next]).timeIntervalSinceNow, 1) * 1000))))
                continue
            }
            let events = due.compactMap { line in devices[line.sensor.lowercased()].map { StateEvent(device: $0, value: line.value, time: replayed(line)) } }
            let posted = try await gateway.post(events)
            guard posted.isSuccess else { throw SimulationError("the server refused lines \(due.first?.line ?? 0)…: \(posted.status) \(posted.errorMessage)") }
            next += due.count
        }
        print("replayed \(next) events")
    }
}
