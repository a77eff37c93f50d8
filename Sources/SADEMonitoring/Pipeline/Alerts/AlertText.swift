import Foundation
import SADEHealth

/// The title and text of an alert, for people. A patient is named by their identifier
/// and bed, never by name: alerts and their notices are stored as they are (only the
/// registry's identifying data is sealed) and leave the system by e-mail and webhook.
struct AlertText {
    let title: String
    let message: String

    init(_ anomaly: Anomaly, patient: Patient?, sector: HospitalSector?) {
        let who = anomaly.patient.rawValue
        let place = [sector?.name, patient?.bed.map { "bed \($0)" }].compactMap { $0 }.joined(separator: ", ")
        switch anomaly.kind {
        case .news2:
            let score = anomaly.score
            title = "NEWS2 \(score?.total ?? 0) (\(score?.band.rawValue ?? "?")): \(who)"
        case .outOfRange(let type):
            title = "\(type.rawValue) \(anomaly.readings.last.map { "\($0.value)" } ?? "?") out of range: \(who)"
        case .noData:
            title = "No data: \(who)"
        }
        var lines = [anomaly.summary]
        if !place.isEmpty { lines.append("Where: \(place)") }
        if let response = anomaly.score?.response { lines.append("Response: \(response.kind)") }
        message = lines.joined(separator: "\n")
    }
}
