import Foundation
import SADEHealth

/// The demo of `sade serve --demo`: a hospital with a COVID ward and an ICU, its
/// staff (all with the password ``password``), twelve patients — the ICU's on
/// respirators — and how each one's simulated monitor behaves.
public enum DemoHospital {
    /// Every demo account's password. Demo mode only.
    public static let password = "sade-demo"
    /// The hospital.
    public static let hospital = Hospital(id: "demo-hospital", name: "SADE Demo Hospital", address: "1 Demo Street")
    /// The COVID ward.
    public static let covidWard = HospitalSector(
        id: "covid-ward", hospital: hospital.id, name: "COVID ward", mailingList: ["covid-ward@demo-hospital.example"])
    /// The intensive care unit.
    public static let icu = HospitalSector(id: "icu", hospital: hospital.id, name: "ICU", mailingList: ["icu@demo-hospital.example"])

    /// A demo account and, for staff, their worker record.
    public struct StaffMember: Sendable {
        /// The login.
        public let account: UserAccount
        /// The worker record (doctors and nurses).
        public let worker: HealthCareWorker?
    }

    /// The staff: `admin`, `doctor1` (COVID ward), `doctor2` (ICU), `nurse1` and
    /// `nurse2` (COVID ward), `nurse3` (ICU); doctors and nurses on duty.
    public static let staff: [StaffMember] = [
        member("admin", "Alex Admin", .admin, sectors: []),
        member("doctor1", "Dr. Dana Reyes", .doctor, sectors: [covidWard.id]),
        member("doctor2", "Dr. Sam Okafor", .doctor, sectors: [icu.id]),
        member("nurse1", "Nora Lindqvist", .nurse, sectors: [covidWard.id]),
        member("nurse2", "Nina Costa", .nurse, sectors: [covidWard.id]),
        member("nurse3", "Noel Haddad", .nurse, sectors: [icu.id]),
    ]

    /// The relatives: `emma`, the daughter of Joseph Brown (the demo flat whose mornings
    /// go quiet, `resident-02`), and `lucy`, the wife of John Carter (`patient-02`, who
    /// deteriorates). They see their person's latest vital signs, alerts and flat and get
    /// the flat's alarms.
    public static let relatives: [UserAccount] = [
        UserAccount(id: "demo-emma", username: "emma", name: "Emma Brown", role: .relative, relativeOf: ["resident-02"]),
        UserAccount(id: "demo-lucy", username: "lucy", name: "Lucy Carter", role: .relative, relativeOf: ["patient-02"]),
    ]

    /// A demo patient and their monitor's behaviour.
    public struct DemoPatient: Sendable {
        /// The record.
        public let patient: Patient
        /// How the simulated monitor behaves.
        public let behaviour: VitalSignSimulator.Profile
    }

    /// Twelve patients: eight in the COVID ward, four on respirators in the ICU.
    public static let patients: [DemoPatient] = {
        let names = [
            "Maria Silva", "John Carter", "Aiko Tanaka", "Pedro Alves", "Fatima Zahra", "Liam O'Brien",
            "Sofia Rossi", "Kwame Mensah", "Elena Petrova", "Omar Haddad", "Grace Kim", "Lucas Martin",
        ]
        let behaviours: [VitalSignSimulator.Profile] = [
            .normal, .deteriorating, .normal, .noisy, .normal, .droppingOut, .normal, .normal, .normal, .deteriorating, .noisy, .normal,
        ]
        return names.indices.map { index in
            let inICU = index >= 8
            var patient = Patient(
                id: PatientID(String(format: "patient-%02d", index + 1)), name: names[index],
                dateOfBirth: Date(timeIntervalSince1970: Double(-20 + index * 3) * 365.25 * 86_400),
                sex: index.isMultiple(of: 2) ? .female : .male, sector: inICU ? icu.id : covidWard.id,
                bed: inICU ? "ICU-\(index - 7)" : "C-\(index + 1)")
            var covid = COVID19Patient(patient)
            covid.onRespirator = inICU
            patient = covid.patient
            return DemoPatient(patient: patient, behaviour: behaviours[index])
        }
    }()

    /// Seeds `system` unless it already has accounts — the hospital, its staff and
    /// patients, and ``historyHours`` of past readings. Returns whether it seeded.
    @discardableResult
    public static func seed(_ system: MonitoringSystem) async throws(MonitoringError) -> Bool {
        guard try await system.accounts.count() == 0 else { return false }
        do {
            try await system.health.save(hospital)
            try await system.health.save(covidWard)
            try await system.health.save(icu)
            for member in staff {
                if let worker = member.worker { try await system.health.save(worker) }
            }
            for demo in patients { try await system.health.save(demo.patient) }
            try await saveHistory(system, hours: historyHours)
        } catch { throw MonitoringError(error) }
        // The password is published: hashing it slowly would protect nothing and cost every
        // demo start and login a quarter of a second per account. A password the user sets
        // later is hashed at the server's cost.
        for member in staff { try await system.accounts.create(member.account, password: password, hasher: .fastForTests) }
        for relative in relatives { try await system.accounts.create(relative, password: password, hasher: .fastForTests) }
        return true
    }

    /// How many hours of readings a freshly seeded demo already has, so that trend
    /// charts show more than the minutes since start.
    public static let historyHours = 24

    /// Saves `hours` of stable readings (every 5 minutes, ending 5 minutes ago) for
    /// every demo patient: the monitors' story up to now, before the live profiles run.
    static func saveHistory(_ system: MonitoringSystem, hours: Int) async throws(HealthError) {
        let now = system.now()
        let start = now.addingTimeInterval(-Double(hours) * 3600)
        for (index, demo) in patients.enumerated() {
            let history = VitalSignSimulator(
                patient: demo.patient.id, profile: .normal, seed: UInt64(1000 + index),
                onRespirator: COVID19Patient(demo.patient).onRespirator, start: start)
            let samples = stride(from: start, to: now.addingTimeInterval(-299), by: 300).flatMap(history.samples(at:))
            try await system.health.save(samples, as: .system)
        }
    }

    /// Attaches a simulated bedside monitor to every demo patient still in the
    /// registry, starting now: deteriorating patients drift for ten minutes after two
    /// normal ones.
    public static func startMonitors(_ system: MonitoringSystem) async throws(MonitoringError) {
        let now = system.now()
        for (index, demo) in patients.enumerated() {
            let record: Patient?
            do { record = try await system.health.patient(demo.patient.id) } catch { throw MonitoringError(error) }
            guard let record else { continue }
            await system.simulatedMonitors.add(VitalSignSimulator(
                patient: record.id, profile: demo.behaviour, seed: UInt64(index + 1), onRespirator: COVID19Patient(record).onRespirator,
                start: now, configuration: .init(deteriorationDelay: 120, deteriorationSpan: 600, dropoutCycle: 900, silentFor: 300)))
        }
    }

    private static func member(_ username: String, _ name: String, _ role: UserRole, sectors: Set<SectorID>) -> StaffMember {
        let email = "\(username)@demo-hospital.example"
        let worker: HealthCareWorker? =
            switch role {
            case .doctor: HealthCareWorker(id: username, name: name, role: .doctor, email: email, sectors: sectors, onDuty: true)
            case .nurse: HealthCareWorker(id: username, name: name, role: .nurse, email: email, sectors: sectors, onDuty: true)
            default: nil
            }
        let account = UserAccount(
            id: "demo-\(username)", username: username, name: name, role: role, email: email, staffID: worker?.id)
        return StaffMember(account: account, worker: worker)
    }
}
