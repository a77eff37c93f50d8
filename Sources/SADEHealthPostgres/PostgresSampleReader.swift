import Foundation
import PostgresNIO
import SADEHealth
import SADEPostgres

/// Turns `sample` rows back into ``HealthSample``s, complete with a correlation's
/// members and an ECG's waveform (read on the same connection, in the same snapshot).
struct PostgresSampleReader {
    /// The columns every sample query selects, in the order ``sample(_:)`` reads them.
    static let columns = #"change_number, uuid, patient, type, value, unit, original_value, start, "end", device, source, metadata, correlation"#
    /// How many ``columns`` there are.
    static let columnCount = 13

    private let connection: PostgresConnection
    private let database: PostgresPool
    private var decoder = StoredSampleDecoder()

    init(_ connection: PostgresConnection, _ database: PostgresPool) {
        self.connection = connection
        self.database = database
    }

    /// The samples `query` selects (``columns`` first) with their change numbers.
    mutating func fetch(_ query: PostgresQuery) async throws -> (samples: [HealthSample], changeNumbers: [Int64]) {
        try await fetch(rows: try await connection.rows(query, database))
    }

    /// The samples in `rows` (``columns`` first, more columns may follow) with their
    /// change numbers; a correlation's members and an ECG's waveform are read now.
    mutating func fetch(rows: [PostgresRow]) async throws -> (samples: [HealthSample], changeNumbers: [Int64]) {
        var samples: [HealthSample] = []
        var changeNumbers: [Int64] = []
        var correlations: [Int64: Int] = [:]
        for row in rows {
            let (changeNumber, sample) = try self.sample(row)
            changeNumbers.append(changeNumber)
            switch sample.type {
            case .correlation:
                correlations[changeNumber] = samples.count
                samples.append(sample)
            case .electrocardiogram:
                var sample = sample
                sample.value = .electrocardiogram(try await electrocardiogram(changeNumber))
                samples.append(sample)
            case .quantity, .category:
                samples.append(sample)
            }
        }
        if !correlations.isEmpty {
            var members: [Int64: [HealthSample]] = [:]
            let rows = try await connection.rows(
                PostgresQuery(
                    unsafeSQL: "SELECT \(Self.columns) FROM sample WHERE correlation = ANY($1) ORDER BY change_number",
                    binds: { var binds = PostgresBindings(); binds.append(Array(correlations.keys)); return binds }()), database)
            for row in rows {
                let correlation = try row.makeRandomAccess()[12].decode(Int64?.self) ?? 0
                members[correlation, default: []].append(try sample(row).sample)
            }
            for (changeNumber, position) in correlations {
                samples[position].value = .correlation(members[changeNumber] ?? [])
            }
        }
        return (samples, changeNumbers)
    }

    /// One row as a sample; a correlation without members and an ECG without voltages.
    private mutating func sample(_ row: PostgresRow) throws -> (changeNumber: Int64, sample: HealthSample) {
        let (changeNumber, uuid, patient, type, value, unit, originalValue, start, end, device, source, metadata, _) = try row.decode(
            (Int64, UUID, String, String, Double?, String?, Double?, Double, Double, String?, String?, String?, Int64?).self)
        let stored = StoredSample(
            uuid: uuid, patient: patient, type: type, value: value, unit: unit, originalValue: originalValue, start: start, end: end,
            device: device, source: source, metadata: metadata)
        return (changeNumber, try decoder.sample(stored))
    }

    /// The waveform of the ECG sample with `changeNumber`.
    private func electrocardiogram(_ changeNumber: Int64) async throws -> Electrocardiogram {
        guard
            let row = try await connection.rows(
                "SELECT sampling_frequency, lead, unit, voltage_count, average_heart_rate FROM electrocardiogram WHERE sample = \(changeNumber)",
                database
            ).first
        else { throw HealthError.storage("the waveform of ECG sample \(changeNumber) is missing") }
        let (frequency, lead, unit, count, averageHeartRate) = try row.decode((Double, String, String, Int, Double?).self)
        var voltages: [Double] = []
        voltages.reserveCapacity(count)
        for chunk in try await connection.rows("SELECT voltages FROM electrocardiogram_chunk WHERE sample = \(changeNumber) ORDER BY chunk", database) {
            try ElectrocardiogramBytes.decode(try chunk.decode(Data.self), into: &voltages)
        }
        guard voltages.count == count else {
            throw HealthError.storage("the waveform of ECG sample \(changeNumber) has \(voltages.count) of \(count) voltages")
        }
        return Electrocardiogram(
            samplingFrequency: frequency, lead: lead, voltages: voltages, unit: try HealthUnit(parsing: unit), averageHeartRate: averageHeartRate)
    }
}

/// The `WHERE` clause of a sample or tombstone query: the type, the patient (which
/// the principal must be allowed to read) or else the patients it may read.
struct PostgresSampleFilter {
    private(set) var conditions: [String] = []
    private(set) var binds = PostgresBindings()
    /// True when the principal may read no patient at all: the answer is empty.
    private(set) var matchesNothing = false

    /// Samples of `type`, of `patient` or of every patient `policy` may read.
    ///
    /// - Throws: ``HealthError/invalidValue(field:reason:)`` for an unusable patient
    ///   identifier, or ``HealthError/notAuthorized(principal:access:type:patient:)``
    ///   when `patient` is given and the policy does not cover it.
    init(_ type: HealthType, patient: PatientID?, policy: AccessPolicy) throws(HealthError) {
        add("type = $", type.identifier)
        if let patient {
            try patient.validate()
            try policy.require(.read, type, of: patient)
            add("patient = $", patient.rawValue)
        } else if let allowed = policy.patients(.read, type) {
            matchesNothing = allowed.isEmpty
            add("patient = ANY($)", allowed.map(\.rawValue).sorted())
        }
    }

    /// Samples of `patient` or of every patient `policy` may read of each of `types`
    /// (the same patients for each), whatever their type: the caller names the types.
    ///
    /// - Throws: as ``init(_:patient:policy:)``, for any of the types.
    init(patientsOf types: [HealthType], patient: PatientID?, policy: AccessPolicy) throws(HealthError) {
        if let patient {
            try patient.validate()
            for type in types { try policy.require(.read, type, of: patient) }
            add("patient = $", patient.rawValue)
        } else if let type = types.first, let allowed = policy.patients(.read, type) {
            matchesNothing = allowed.isEmpty
            add("patient = ANY($)", allowed.map(\.rawValue).sorted())
        }
    }

    /// Adds a condition; its `$` is numbered after the parameters so far.
    mutating func add(_ condition: String, _ value: some PostgresDynamicTypeEncodable) {
        binds.append(value)
        conditions.append(condition.replacingOccurrences(of: "$", with: "$\(binds.count)"))
    }

    /// Only the patients of `shards` (``PatientShards/shard(of:)`` in SQL).
    mutating func add(_ shards: PatientShards) {
        binds.append(Int64(PatientShards.count))
        binds.append(shards.members.map(Int64.init))
        conditions.append(
            "(('x' || substr(md5(patient), 1, 8))::bit(32)::int & 2147483647) % $\(binds.count - 1) = ANY($\(binds.count)::BIGINT[])")
        matchesNothing = matchesNothing || shards.isEmpty
    }

    /// `WHERE …`.
    var sql: String { conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ") }

    /// The query `select \(sql) rest`, with `limit` as the last parameter when given.
    func query(_ select: String, _ rest: String, limit: Int? = nil) -> PostgresQuery {
        var binds = self.binds
        var tail = rest
        if let limit {
            binds.append(Int64(limit))
            tail += " LIMIT $\(binds.count)"
        }
        return PostgresQuery(unsafeSQL: "\(select) \(sql) \(tail)", binds: binds)
    }
}
