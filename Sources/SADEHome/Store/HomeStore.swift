import Foundation
import SADEHealth

/// Where homes are kept: flats and their floor plans, devices, state events and their
/// statistics, occupancy and the messages raised for carers.
///
/// The hot spot of the home module's storage, as ``HealthStore`` is the health
/// module's: `SADEHomeSQLite` keeps it in an embedded SQLite file; another backend
/// (PostgreSQL) implements the same protocol. Every method is all-or-nothing.
public protocol HomeStore: Sendable {
    // MARK: Flats

    /// Creates a flat with its rooms and devices; validates names, polygons and object ids.
    func createFlat(_ plan: FlatPlan) async throws(HomeError) -> Flat
    /// Changes a flat's name, resident, carers, time zone or rules.
    func updateFlat(_ id: FlatID, _ update: FlatUpdate) async throws(HomeError) -> Flat
    /// Adds a device to a room of a flat.
    func addDevice(_ plan: DevicePlan, room: RoomID, flat: FlatID) async throws(HomeError) -> Device
    /// The flat with `id`, rooms and devices included.
    func flat(_ id: FlatID) async throws(HomeError) -> Flat
    /// Every flat, by id.
    func flats() async throws(HomeError) -> [Flat]

    // MARK: Events

    /// Records `events` in one transaction: all, or none when one names an unknown device
    /// (``HomeError/unknownDevice(_:)``). Updates the hourly statistics and occupancy.
    @discardableResult
    func record(_ events: [StateEvent]) async throws(HomeError) -> [RecordedEvent]
    /// Each device of the flat with its latest event, battery and last change.
    func states(flat: FlatID) async throws(HomeError) -> [DeviceState]
    /// A device's events from `start` (inclusive) to `end` (exclusive), oldest first, at most `limit`.
    func history(device: DeviceID, from start: Date, to end: Date, limit: Int?) async throws(HomeError) -> [StateEvent]
    /// The events of the flat's resident-activity devices (motion, doors, usage, …) in the period, oldest first.
    func activity(flat: FlatID, from start: Date, to end: Date) async throws(HomeError) -> [StateEvent]
    /// When the resident last did something (the newest resident-activity event), if ever.
    func lastActivity(flat: FlatID) async throws(HomeError) -> Date?
    /// Statistics of each device in buckets of `period` (empty buckets left out), from the hourly statistics.
    func statistics(devices: [DeviceID], from start: Date, to end: Date, period: StatisticsPeriod) async throws(HomeError)
        -> [DeviceID: [DeviceStatistic]]
    /// The flat's energy consumed and generated per bucket: from its energy counters'
    /// increase, or, for a direction without a counter, its power meters integrated over time.
    func energyBalance(flat: FlatID, from start: Date, to end: Date, period: StatisticsPeriod) async throws(HomeError) -> [EnergyBalance]
    /// Deletes events older than `date` (their hourly statistics stay); returns how many.
    @discardableResult
    func deleteEvents(before date: Date) async throws(HomeError) -> Int
    /// Where the resident is, from the latest motion.
    func occupancy(flat: FlatID) async throws(HomeError) -> Occupancy?

    // MARK: Messages

    /// Raises a message at `date`; while one with the same flat and key is open, returns
    /// that one instead (`isNew` false). Silent messages are stored as ``HomeMessageState/logged``.
    func raise(_ draft: HomeMessageDraft, at date: Date) async throws(HomeError) -> (message: HomeMessage, isNew: Bool)
    /// A person confirms an open message.
    func confirm(message id: Int64, by person: String, at date: Date) async throws(HomeError) -> HomeMessage
    /// Marks open messages whose time is up as expired; returns them.
    func expireMessages(at date: Date) async throws(HomeError) -> [HomeMessage]
    /// The flat's messages raised in the period, newest first; only those in `states` when given.
    func messages(flat: FlatID, states: Set<HomeMessageState>?, from start: Date?, to end: Date?) async throws(HomeError) -> [HomeMessage]
    /// The message with `id`.
    func message(_ id: Int64) async throws(HomeError) -> HomeMessage
}
