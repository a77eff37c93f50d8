import Foundation
import SADECore

/// Something dangerous a detector reported: smoke, gas, water or a fall.
public struct Hazard: Hashable, Sendable, Codable {
    /// The detector.
    public var device: DeviceID
    /// Its kind.
    public var kind: String
    /// Where it is ("Kitchen").
    public var room: String
    /// When it fired.
    public var time: Date

    /// A hazard.
    public init(device: DeviceID, kind: String, room: String, time: Date) {
        self.device = device
        self.kind = kind
        self.room = room
        self.time = time
    }
}

/// A battery that became weak or empty.
public struct BatteryReport: Hashable, Sendable, Codable {
    /// The device.
    public var device: DeviceID
    /// Its name ("Hall motion").
    public var name: String
    /// Weak or empty.
    public var state: BatteryState
    /// Its charge, in percent.
    public var percent: Int
    /// When it reported that charge.
    public var time: Date

    /// A report.
    public init(device: DeviceID, name: String, state: BatteryState, percent: Int, time: Date) {
        self.device = device
        self.name = name
        self.state = state
        self.percent = percent
        self.time = time
    }
}

/// A rule of ``InactivityRules`` that the resident's quiet broke.
public struct InactivityBreach: Hashable, Sendable, Codable {
    /// One message per key: the continuous rule keys on the last activity, a window on
    /// its day and hours.
    public var key: String
    /// What carers read ("No activity for 12 h since 21:04").
    public var text: String

    /// A breach.
    public init(key: String, text: String) {
        self.key = key
        self.text = text
    }
}

/// What the home agent perceives of a batch of events: the changes that matter to its goals.
public struct HomeFacts: Hashable, Sendable, Codable {
    /// Detectors that went from clear to detected.
    public var hazards: [Hazard] = []
    /// Batteries that got worse.
    public var batteries: [BatteryReport] = []
    /// The newest resident activity in the batch.
    public var lastActivity: Date?

    /// Facts.
    public init(hazards: [Hazard] = [], batteries: [BatteryReport] = [], lastActivity: Date? = nil) {
        self.hazards = hazards
        self.batteries = batteries
        self.lastActivity = lastActivity
    }

    /// Whether there is nothing to tell the agent.
    public var isEmpty: Bool { hazards.isEmpty && batteries.isEmpty && lastActivity == nil }
}

extension BeliefKey where Value == [Hazard] {
    /// Hazards detected and not yet raised as alarms.
    public static let hazards: BeliefKey<[Hazard]> = "hazards"
}

extension BeliefKey where Value == [BatteryReport] {
    /// Batteries that got worse and are not yet reported.
    public static let batteryReports: BeliefKey<[BatteryReport]> = "batteryReports"
}

extension BeliefKey where Value == [InactivityBreach] {
    /// Inactivity rules broken and not yet raised as alarms.
    public static let inactivity: BeliefKey<[InactivityBreach]> = "inactivity"
}

extension BeliefKey where Value == [DeviceFault] {
    /// Sensors that seem broken, not yet told to the carers.
    public static let deviceFaults: BeliefKey<[DeviceFault]> = "deviceFaults"
}

extension BeliefKey where Value == Bool {
    /// Whether the agent has looked at the batteries since it started.
    public static let batteriesReviewed: BeliefKey<Bool> = "batteriesReviewed"
}

extension BeliefKey where Value == [Date] {
    /// Days that ended (their local midnights) and are not yet reviewed.
    public static let unreviewedDays: BeliefKey<[Date]> = "unreviewedDays"
}

extension BeliefKey where Value == Date {
    /// The local midnight of the day the agent's clock is in.
    public static let today: BeliefKey<Date> = "today"

    /// When the resident last did something (or the watch began, if never).
    public static let lastActivity: BeliefKey<Date> = "lastActivity"
    /// When the sensors were last checked for faults.
    public static let devicesChecked: BeliefKey<Date> = "devicesChecked"
}

extension Condition {
    /// Holds while the belief, a list, is empty or absent.
    static func isEmpty<Element: Hashable & Sendable>(_ key: BeliefKey<[Element]>) -> Condition {
        Condition("\(key.name) is empty") { beliefs in beliefs[key]?.isEmpty ?? true }
    }
}

extension Agent {
    /// Adds what `facts` tell to the agent's beliefs, in one step on the agent.
    public func perceive(_ facts: HomeFacts) {
        if !facts.hazards.isEmpty { setBelief(.hazards, to: (beliefs[.hazards] ?? []) + facts.hazards) }
        if !facts.batteries.isEmpty { setBelief(.batteryReports, to: (beliefs[.batteryReports] ?? []) + facts.batteries) }
        if let time = facts.lastActivity, time > beliefs[.lastActivity] ?? .distantPast { setBelief(.lastActivity, to: time) }
    }

    /// Takes the items of a list belief for handling, leaving it empty, in one step on
    /// the agent (so nothing perceived in between is lost).
    func take<Element: Hashable & Sendable>(_ key: BeliefKey<[Element]>) -> [Element] {
        let items = beliefs[key] ?? []
        if !items.isEmpty { setBelief(key, to: []) }
        return items
    }
}
