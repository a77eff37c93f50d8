import Foundation

/// What really happened on a generated day: the ground truth the detectors are scored on.
public struct TruthDay: Hashable, Sendable, Codable {
    /// What kind of day it was.
    public enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
        /// An ordinary day, weekday or weekend.
        case normal
        /// An ordinary day with a visitor (two people moving).
        case visitor
        /// A day the resident spent (partly) away from home, leaving and coming back by the door.
        case away
        /// Abnormal: stayed in bed until late afternoon.
        case stayedInBed
        /// Abnormal: no meals after breakfast.
        case skippedMeals
        /// Abnormal: up and about for hours in the night.
        case nightWandering
        /// An emergency: the resident stopped moving at ``TruthDay/emergency``.
        case emergency
        /// The day after an emergency: the resident is in hospital, nobody is home.
        case afterEmergency
    }

    /// `2026-01-05`.
    public var label: String
    /// What kind of day.
    public var kind: Kind
    /// When the resident stopped moving, on an emergency day.
    public var emergency: Date?
    /// Whether it belongs to the detectors' training weeks (only ordinary days there).
    public var isTraining: Bool

    /// A day's truth.
    public init(label: String, kind: Kind, emergency: Date? = nil, isTraining: Bool) {
        self.label = label
        self.kind = kind
        self.emergency = emergency
        self.isTraining = isTraining
    }

    /// One of the abnormal days a day-level detector should flag.
    public var isAbnormal: Bool { kind == .stayedInBed || kind == .skippedMeals || kind == .nightWandering }

    /// An ordinary day, on which any alarm is a false one.
    public var isOrdinary: Bool { kind == .normal || kind == .visitor || kind == .away }
}
