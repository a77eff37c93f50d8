import Foundation
import Testing
import SADEHealth
@testable import SADEHealthSQLite

/// The two ways a store is opened: a real file in a fresh temporary directory, and memory.
enum StoreKind: String, CaseIterable, CustomTestStringConvertible {
    case file, memory
    var testDescription: String { rawValue }
}

/// A fresh temporary directory, removed by ``remove()``.
struct TemporaryDirectory {
    let path: String

    init() {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("sade-health-\(UUID().uuidString)").path
    }

    func remove() { try? FileManager.default.removeItem(atPath: path) }
}

/// Runs `body` with a new store of `kind`; a file store's directory is removed afterwards.
func withStore<T>(_ kind: StoreKind, _ body: (SQLiteHealthStore) async throws -> T) async throws -> T {
    switch kind {
    case .memory:
        return try await body(try SQLiteHealthStore.inMemory())
    case .file:
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        return try await body(try SQLiteHealthStore(directory: directory.path))
    }
}

/// A fixed moment, so tests do not depend on the clock.
let t0 = Date(timeIntervalSince1970: 1_700_000_000)

/// `t0` plus `minutes`.
func at(_ minutes: Double) -> Date { t0.addingTimeInterval(minutes * 60) }

/// A heart-rate sample of `patient` at `minutes` after `t0`.
func pulse(_ value: Double, _ patient: PatientID = "p-1", at minutes: Double) -> HealthSample {
    .quantity(.heartRate, value, patient: patient, at: at(minutes))
}

/// What an operation threw: `nil` when it succeeded; any error that is not a
/// ``HealthError`` comes back as a storage error saying so, so it fails comparisons.
func healthError(_ body: () async throws -> Void) async -> HealthError? {
    do {
        try await body()
        return nil
    } catch let error as HealthError {
        return error
    } catch {
        return .storage("not a HealthError: \(error)")
    }
}

