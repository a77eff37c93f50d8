import Foundation

extension HealthError {
    /// A member of a correlation listed for deletion without its correlation.
    package static func memberDeletedAlone(_ member: UUID, of reading: UUID, type: String) -> HealthError {
        let name = type == HealthType.correlation(.bloodPressure).identifier ? "blood-pressure reading" : "\(type) correlation"
        return .invalidValue(
            field: "ids",
            reason: "sample \(member.uuidString.lowercased()) is part of \(name) \(reading.uuidString.lowercased()); delete the \(name) instead")
    }
}
