/// The code systems and identifier namespaces SADE's FHIR resources use.
public enum FHIRSystem {
    /// SADE's own codes: an app's quantity type registered without a FHIR coding is
    /// coded here, its identifier as the code.
    public static let sade = "urn:sade:health-type"
    /// LOINC, for the vital signs (`8867-4` heart rate …).
    public static let loinc = "http://loinc.org"
    /// SNOMED CT, for consciousness (ACVPU) and oxygen therapy.
    public static let snomed = "http://snomed.info/sct"
    /// UCUM, for every unit.
    public static let ucum = "http://unitsofmeasure.org"
    /// Observation categories (`vital-signs`, `activity` …).
    public static let observationCategory = "http://terminology.hl7.org/CodeSystem/observation-category"
    /// Observation interpretation (`H`, `L`, `HH`, `LL`).
    public static let interpretation = "http://terminology.hl7.org/CodeSystem/v3-ObservationInterpretation"
    /// URIs as identifiers: a sample's identifier is `urn:uuid:<its UUID>` in this system.
    public static let uri = "urn:ietf:rfc:3986"
    /// SADE's patient identifiers (``PatientID``).
    public static let sadePatient = "urn:sade:patient"
}
