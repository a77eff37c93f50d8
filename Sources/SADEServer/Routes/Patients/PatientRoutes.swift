import Foundation
import Hummingbird
import SADEHealth
import SADEMonitoring

extension MonitoringServer {
    /// `GET /patients` — the caller's patients with their latest vitals, NEWS2 and
    /// open alerts, the riskiest first — and `GET /patients/{id}`.
    func addPatientRoutes(to api: RouterGroup<MonitoringRequestContext>) {
        api.get("patients") { request, context in
            let caller = try context.requireCaller()
            let readable = try await system.access.readablePatients(for: caller)
            let sector = request.uri.queryParameters["sector"].map(String.init)
            let patients: [Patient]
            patients = try await system.health.patients(in: sector)
            let now = system.now()
            var overviews: [PatientOverview] = []
            for patient in patients where readable?.contains(patient.id) ?? true {
                overviews.append(try await overview(of: patient, at: now))
            }
            overviews.sort(by: PatientOverview.riskierFirst)
            return overviews.map(OverviewView.init)
        }

        api.get("patients/:id") { _, context in
            let patient = try await readablePatient(context)
            var thresholds: [String: [Double]] = [:]
            for type in QuantityType.allCases {
                if let range = patient.typicalRange(of: type) { thresholds[type.rawValue] = [range.lowerBound, range.upperBound] }
            }
            return PatientDetail(overview: OverviewView(try await overview(of: patient, at: system.now())), thresholds: thresholds)
        }
    }

    func overview(of patient: Patient, at now: Date) async throws -> PatientOverview {
        try await PatientOverview.make(
            for: patient, from: system.health, at: now, openAlerts: try await system.openAlertCount(patient: patient.id))
    }
}

extension PatientOverview {
    /// The riskier NEWS2 band first (a single parameter scoring 3 outranks a total of 4,
    /// as the RCP response does), then the higher total, then more open alerts, then by name.
    static func riskierFirst(_ lhs: PatientOverview, _ rhs: PatientOverview) -> Bool {
        func rank(_ band: NEWS2Band?) -> Int { band.map { NEWS2Band.allCases.firstIndex(of: $0) ?? 0 } ?? -1 }
        let left = (rank(lhs.news2?.band), lhs.news2?.total ?? -1, lhs.openAlerts)
        let right = (rank(rhs.news2?.band), rhs.news2?.total ?? -1, rhs.openAlerts)
        if left != right { return left > right }
        return lhs.patient.name < rhs.patient.name
    }
}

/// A patient at a glance as the API shows it: the record as ``PatientView``.
struct OverviewView: ResponseEncodable {
    let patient: PatientView
    let onRespirator: Bool
    let vitals: [String: PatientOverview.Reading]
    let news2: NEWS2Score?
    let lastReadingAt: Date?
    let secondsSinceLastReading: Double?
    let openAlerts: Int

    init(_ overview: PatientOverview) {
        patient = PatientView(overview.patient)
        onRespirator = overview.onRespirator
        vitals = overview.vitals
        news2 = overview.news2
        lastReadingAt = overview.lastReadingAt
        secondsSinceLastReading = overview.secondsSinceLastReading
        openAlerts = overview.openAlerts
    }
}

/// What `GET /patients/{id}` answers: the overview and the ranges the patient is judged by.
struct PatientDetail: ResponseEncodable {
    let overview: OverviewView
    let thresholds: [String: [Double]]
}
