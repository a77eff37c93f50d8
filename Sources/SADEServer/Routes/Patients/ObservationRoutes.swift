import Foundation
import Hummingbird
import SADEHealth
import SADEMonitoring

extension MonitoringServer {
    /// `POST /patients/{id}/observations` (one sample or an array: validated, stored
    /// in one transaction, then evaluated) and `GET /patients/{id}/observations`
    /// (raw, or aggregated per `bucket`).
    func addObservationRoutes(to api: RouterGroup<MonitoringRequestContext>) {
        api.post("patients/:id/observations") { request, context -> Response in
            let caller = try context.requireCaller()
            let patient = try await existingPatient(context)
            guard try await system.access.mayWrite(patient.id, as: caller) else {
                throw APIError.forbidden("you may not add samples to patient \(patient.id)")
            }
            let body = try await APIRequestDecoder.collect(request, limit: context.maxUploadSize, channel: context.channel)
            let batch = try ObservationBatch.decode(Array(body.readableBytesView))
            guard !batch.observations.isEmpty else { throw APIError.invalid("the array holds no observations", code: "invalid-body") }
            guard batch.observations.count <= configuration.maxBatchSamples else {
                throw APIError(.contentTooLarge, code: "batch-too-large", message: "at most \(configuration.maxBatchSamples) observations per request")
            }
            let now = system.now()
            let samples = try batch.observations.enumerated().map { index, observation in
                try observation.sample(
                    for: patient.id, source: "api:\(caller.username)", field: batch.isArray ? "[\(index)]" : "", now: now)
            }
            try await system.health.save(samples, as: .system)
            system.samplesAccepted(samples.count)
            // `{"accepted": n, "ids": [...]}` written directly: JSONEncoder's cost showed
            // under load, and UUIDs need no escaping.
            var accepted = #"{"accepted":\#(samples.count),"ids":["#
            accepted.reserveCapacity(accepted.utf8.count + samples.count * 39 + 2)
            for (index, sample) in samples.enumerated() {
                accepted += index == 0 ? "\"" : ",\""
                accepted += sample.id.uuidString
                accepted += "\""
            }
            accepted += "]}"
            return Response(
                status: .created, headers: [.contentType: "application/json; charset=utf-8"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: accepted)))
        }

        api.get("patients/:id/observations") { request, context -> Response in
            let patient = try await readablePatient(context, record: true)
            let query = try ObservationQuery(request.uri.queryParameters, now: system.now())
            if let bucket = query.bucket {
                var series: [BucketSeries] = []
                for type in query.types {
                    guard case .quantity(let quantityType) = type else { continue }
                    let statistics: [HealthStatistics]
                    statistics = try await system.health.statisticsCollection(
                        quantityType, patient: patient.id, from: query.from, to: query.to, interval: bucket, as: .system)
                    series.append(BucketSeries(type: quantityType, statistics: statistics))
                }
                return try series.response(from: request, context: context)
            }
            var samples: [SampleView] = []
            for type in query.types {
                let found: [HealthSample]
                found = try await system.health.samples(
                    SampleQuery(type, patient: patient.id, from: query.from, until: query.to, limit: query.limit, order: .newestFirst),
                    as: .system)
                samples += found.compactMap(SampleView.init)
            }
            samples.sort { $0.start > $1.start }
            return try Array(samples.prefix(query.limit)).response(from: request, context: context)
        }
    }

    /// The patient named in the path, or 404.
    func existingPatient(_ context: MonitoringRequestContext) async throws -> Patient {
        let raw = try context.pathParameter("id")
        let id = PatientID(rawValue: raw)
        try id.validate(field: "id")
        let found: Patient?
        found = try await system.health.patient(id)
        guard let found else { throw APIError.notFound("no patient \(raw)") }
        return found
    }

    /// The patient named in the path if the caller may read them: 404 or 403 otherwise; a
    /// relative reads their overview only, not their `record` (samples, thresholds, FHIR).
    func readablePatient(_ context: MonitoringRequestContext, record: Bool = false) async throws -> Patient {
        let caller = try context.requireCaller()
        let patient = try await existingPatient(context)
        if record, caller.role == .relative {
            throw APIError.forbidden("a relative sees the patient's latest vital signs and alerts (GET /patients/{id}), not their record")
        }
        guard try await system.access.mayRead(patient.id, as: caller) else {
            throw APIError.forbidden("patient \(patient.id) is not one of your patients")
        }
        return patient
    }
}
