import Foundation
import SADECore
@testable import SADEHome
import SADETestTiming
import Testing

@Suite("Device faults: a sensor stuck on or silent is told to the carers, not taken for the resident", .timeLimit(.minutes(3)), .timed)
struct DeviceFaultTests {
    static func reading(_ device: Device, _ value: Double, at seconds: Double) -> StateEvent {
        StateEvent(device: device.id, value: value, battery: 90, time: HomeFixture.at(seconds))
    }

    /// The kitchen's motion firing (on, then off) at each of `minutes`.
    static func kitchen(_ home: HomeFixture, at minutes: [Double]) -> [StateEvent] {
        minutes.flatMap { [reading(home.device("kitchen_motion"), 1, at: $0 * 60), reading(home.device("kitchen_motion"), 0, at: $0 * 60 + 30)] }
    }

    @Test("a motion sensor on for over an hour while the resident moves in other rooms is stuck; one still on with nothing elsewhere is not")
    func stuck() async throws {
        let home = try await HomeFixture()
        defer { Task { await home.stop() } }
        let bedroom = home.device("bedroom_motion")
        let events = [Self.reading(bedroom, 1, at: 60)] + Self.kitchen(home, at: [2, 5, 10, 30])
        let faults = DeviceFaults.find(in: events, flat: home.flat, at: HomeFixture.at(3600 + 61))
        #expect(faults.map(\.kind) == [.stuck] && faults.first?.device == bedroom.id, "\(faults)")
        #expect(faults.first?.text.hasPrefix("Bedroom motion (bedroom) has read on since 2026-03-02 00:01") == true, "\(faults)")
        #expect(DeviceFaults.find(in: events, flat: home.flat, at: HomeFixture.at(3600 + 59)).isEmpty, "not before an hour")
        let repeated = DeviceFaults.find(in: (events + [Self.reading(bedroom, 1, at: 1800)]).sorted { $0.time < $1.time }, flat: home.flat, at: HomeFixture.at(3661))
        #expect(repeated.map(\.key) == faults.map(\.key), "a gateway re-sending on is the same fault, since the same time")
        #expect(DeviceFaults.find(in: [Self.reading(bedroom, 1, at: 60)] + Self.kitchen(home, at: [2, 5]), flat: home.flat, at: HomeFixture.at(7200)).isEmpty,
                "two readings elsewhere may be a glitch or a visitor")
        #expect(DeviceFaults.find(in: [Self.reading(bedroom, 1, at: 60), Self.reading(bedroom, 0, at: 90)] + Self.kitchen(home, at: [2, 5, 10, 30]),
                                  flat: home.flat, at: HomeFixture.at(7200)).isEmpty, "it turned off")
    }

    @Test("a sensor that fired every day is silent for twice its longest gap while the flat is active: silent; one that fires now and then is not")
    func silent() async throws {
        let home = try await HomeFixture()
        defer { Task { await home.stop() } }
        let bedroom = home.device("bedroom_motion"), window = home.device("bedroom_window")
        let day = 86400.0
        var events: [StateEvent] = []
        for index in 0..<7 {  // a week: the bedroom's motion every morning, the window twice in it
            events += [Self.reading(bedroom, 1, at: Double(index) * day + 7 * 3600), Self.reading(bedroom, 0, at: Double(index) * day + 7 * 3600 + 30)]
            if index == 0 || index == 3 { events.append(Self.reading(window, 1, at: Double(index) * day + 9 * 3600)) }
        }
        let minutes: [Double] = (0..<72).map { (index: Int) -> Double in 6 * 1440 + 8 * 60 + Double(index) * 60 }
        events += Self.kitchen(home, at: minutes)  // then three days of the kitchen only, every hour
        events.sort { $0.time < $1.time }
        let now = HomeFixture.at(8 * day + 7 * 3600 + 600)
        let faults = DeviceFaults.find(in: events, flat: home.flat, at: now)
        #expect(DeviceFaults.find(in: events, flat: home.flat, at: HomeFixture.at(7 * day + 7 * 3600 + 600)).isEmpty,
                "a day and ten minutes: a daily sensor may just be late (it must be twice its longest gap)")
        #expect(faults.map(\.device) == [bedroom.id] && faults.first?.kind == .silent, "\(faults)")
        #expect(faults.first?.text.contains("has not reported since 2026-03-08 07:00") == true, "\(faults)")
        var skipped = events.filter { $0.device != bedroom.id || $0.time < HomeFixture.at(2 * day) || $0.time >= HomeFixture.at(3 * day) }
        skipped.sort { $0.time < $1.time }
        #expect(DeviceFaults.find(in: skipped, flat: home.flat, at: HomeFixture.at(9 * day + 7 * 3600 + 600)).map(\.device) == [bedroom.id],
                "a daily sensor that once skipped a day is silent after three days, not never")
        let quietFlat = events.filter { $0.device != home.device("kitchen_motion").id }
        #expect(DeviceFaults.find(in: quietFlat, flat: home.flat, at: now).isEmpty, "a flat without activity is the resident's quiet, not a sensor's")
    }

    @Test("the home agent checks the sensors every hour: a stuck one is a warning to the carers, raised once even after it is confirmed")
    func agentWarns() async throws {
        let home = try await HomeFixture(rules: InactivityRules(continuousPeriod: nil))
        defer { Task { await home.stop() } }
        let messages = home.service.events.subscribe(flats: [home.flat.id])
        await home.clock.waitForSleepers(1)
        home.clock.advance(by: .seconds(3060))  // 00:51: the readings below have come in by now
        await home.clock.waitForSleepers(1)
        try await home.service.ingest([Self.reading(home.device("bedroom_motion"), 1, at: 60)] + Self.kitchen(home, at: [2, 5, 10, 30, 50]), flat: home.flat.id)
        let warning = try #require(
            await home.clock.ticking(by: .seconds(60), whileAsleep: 1) {
                await first(messages) { $0.homeMessage?.key.hasPrefix("device:") == true }?.homeMessage
            })
        #expect(warning.severity == .warning && warning.title == "A sensor seems stuck" && warning.device == home.device("bedroom_motion").id)
        #expect(warning.raisedAt >= HomeFixture.at(3660) && warning.raisedAt <= HomeFixture.at(2 * 3600 + 60), "at the first hourly check after an hour on")
        _ = try await home.service.confirm(message: warning.id, by: "nurse1")
        home.clock.advance(by: .seconds(3600))  // the next hour's check finds it again: confirmed, it is not raised again
        await home.clock.waitForSleepers(1)
        home.clock.advance(by: .seconds(60))
        await home.clock.waitForSleepers(1)
        let device = try await home.store.messages(flat: home.flat.id, states: nil, from: nil, to: nil).filter { $0.key.hasPrefix("device:") }
        #expect(device.count == 1, "\(device.map(\.key))")
    }
}
