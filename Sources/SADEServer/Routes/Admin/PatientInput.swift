import Foundation
import Hummingbird
import SADEHealth

/// A patient's record as the administration routes show it: the thresholds are the
/// patient's own typical ranges (``Patient/rangeOverrides``) in canonical units.
struct PatientView: ResponseEncodable {
    let id: PatientID
    let name: String
    let dateOfBirth: String?
    let sex: BiologicalSex
    let bloodType: BloodType
    let sector: SectorID?
    let bed: String?
    let onRespirator: Bool
    let usesSpO2Scale2: Bool
    let thresholds: [String: Threshold]
    let attributes: [String: String]

    init(_ patient: Patient) {
        id = patient.id
        name = patient.name
        dateOfBirth = patient.dateOfBirth.map(FHIRDateTime.dateString(from:))
        sex = patient.sex
        bloodType = patient.bloodType
        sector = patient.sector
        bed = patient.bed
        onRespirator = COVID19Patient(patient).onRespirator
        usesSpO2Scale2 = patient.usesSpO2Scale2
        thresholds = Threshold.view(of: patient.rangeOverrides)
        attributes = patient.attributes
    }
}

/// The body of `POST /patients` (where `id` and `name` are required and `sector` and
/// `bed` admit the new patient) and of `PUT /patients/{id}` (absent fields keep their
/// value; the stay changes only through admit and discharge).
struct PatientInput: Decodable {
    var id: String?
    var name: String?
    /// `YYYY-MM-DD` or an ISO 8601 date-time; empty clears it.
    var dateOfBirth: String?
    var sex: BiologicalSex?
    var bloodType: BloodType?
    var sector: String?
    var bed: String?
    var onRespirator: Bool?
    var usesSpO2Scale2: Bool?
    /// Replaces every threshold of the patient.
    var thresholds: [String: Threshold]?

    /// A new patient: 400 naming the field when `id` or `name` is missing or bad.
    func newPatient() throws -> Patient {
        let id = PatientID(rawValue: try AdminInput.identifier(id, field: "id", limit: PatientID.maximumLength))
        var patient = Patient(id: id, name: try AdminInput.requiredText(name, field: "name"))
        if let sector { patient.sector = try AdminInput.identifier(sector, field: "sector") }
        patient.bed = AdminInput.optionalText(bed)
        try apply(to: &patient)
        return patient
    }

    /// Copies the given details onto `patient`.
    func apply(to patient: inout Patient) throws {
        if let name { patient.name = try AdminInput.requiredText(name, field: "name") }
        if let dateOfBirth { patient.dateOfBirth = try Self.date(dateOfBirth) }
        if let sex { patient.sex = sex }
        if let bloodType { patient.bloodType = bloodType }
        if let usesSpO2Scale2 { patient.usesSpO2Scale2 = usesSpO2Scale2 }
        if let onRespirator {
            var covid = COVID19Patient(patient)
            covid.onRespirator = onRespirator
            patient = covid.patient
        }
        if let thresholds { patient.rangeOverrides = try Threshold.ranges(thresholds) }
    }

    /// A date of birth: a FHIR/ISO date (`1950-03-01`) or date-time; `nil` for empty text.
    static func date(_ text: String) throws -> Date? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty { return nil }
        guard let date = FHIRDateTime.day(from: trimmed) ?? APIDate.parse(trimmed), HealthSample.possibleDates.contains(date) else {
            throw APIError.invalid("dateOfBirth: '\(trimmed)' is not a date such as 1950-03-01", code: "invalid-field")
        }
        return date
    }
}
