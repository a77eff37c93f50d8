/// A patient with their samples: what a FHIR Bundle carries in and out of SADE.
public struct PatientRecord: Hashable, Sendable {
    /// The patient.
    public var patient: Patient
    /// Their samples, in the Bundle's order.
    public var samples: [HealthSample]

    /// Creates a record.
    public init(patient: Patient, samples: [HealthSample]) {
        self.patient = patient
        self.samples = samples
    }
}
