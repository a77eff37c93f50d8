import Foundation
import SADEACL
import SADECore

/// The action that detects anomalies in a batch of new samples (SADE4Health's
/// `AnomaliesAction`, a one-shot action): it runs the batch through an
/// ``AnomalyDetector``, checks for patients without data, and hands what it found
/// to a closure or sends it to an agent.
///
/// ```swift
/// let detector = AnomalyDetector()
/// let anomaliesAgent = Agent("AnomaliesAgent", on: platform, runBDICycleOnStart: true) {
///     Goal("detect anomalies") {
///         Plan("check new data") {
///             AnomaliesAction(detector: detector, epoch: startDate, informing: "AlertAgent") { _ in
///                 (samples: await collector.newSamples(), patients: ward.patients)
///             }
///         }
///     }
/// }
/// ```
///
/// **Time.** The action's "now" is `epoch` plus the platform clock's elapsed time
/// (``PlatformClock/elapsed``): pass the date at which the platform was created, and
/// a ``ManualClock`` makes detection deterministic in tests.
///
/// The `report` forms report nothing when nothing was found; the `completion` form
/// is told of every run.
public struct AnomaliesAction: Action {
    /// The new samples to check and the patients' records.
    public typealias Batch = (samples: [HealthSample], patients: [PatientID: Patient])

    /// The action's name.
    public let name: String
    /// Must hold before the action runs.
    public let precondition: Condition?
    /// The engine, shared between runs so episodes span batches.
    public let detector: AnomalyDetector
    /// The date at which the platform clock read zero.
    public let epoch: Date
    private let batch: @Sendable (ActionContext) async throws -> Batch
    private let checksMissingData: (@Sendable (ActionContext) async -> Bool)?
    private let completion: @Sendable (Findings, ActionContext) async throws -> Void

    /// What one run of the action evaluated and found.
    public struct Findings: Sendable {
        /// The samples checked, as the batch closure gave them.
        public let samples: [HealthSample]
        /// The patients' records, as the batch closure gave them.
        public let patients: [PatientID: Patient]
        /// The date the run took as now.
        public let now: Date
        /// The anomalies found, in time order; often none.
        public let anomalies: [Anomaly]
    }

    /// An action that gives everything a run evaluated and found to `completion`,
    /// after every run — also when nothing was found, e.g. to publish what was
    /// evaluated and persist how far the evaluation got.
    ///
    /// - Parameters:
    ///   - batch: supplies the samples to check (e.g. those collected since the last
    ///     run) and the patients' records.
    ///   - checkingMissingData: asked after `batch` whether this run also looks for
    ///     patients without data (e.g. only when a periodic check is due); every run
    ///     does when it is `nil`.
    ///   - completion: called with the run's ``Findings``.
    public init(
        _ name: String = "detect anomalies", detector: AnomalyDetector, epoch: Date, precondition: Condition? = nil,
        batch: @escaping @Sendable (ActionContext) async throws -> Batch,
        checkingMissingData: (@Sendable (ActionContext) async -> Bool)? = nil,
        completion: @escaping @Sendable (Findings, ActionContext) async throws -> Void
    ) {
        self.name = name
        self.detector = detector
        self.epoch = epoch
        self.precondition = precondition
        self.batch = batch
        checksMissingData = checkingMissingData
        self.completion = completion
    }

    /// An action that gives the anomalies found to `report`.
    ///
    /// - Parameters:
    ///   - batch: supplies the samples to check (e.g. those collected since the last
    ///     run) and the patients' records.
    ///   - report: called with the anomalies, in time order, when there are any.
    public init(
        _ name: String = "detect anomalies", detector: AnomalyDetector, epoch: Date, precondition: Condition? = nil,
        batch: @escaping @Sendable (ActionContext) async throws -> Batch,
        report: @escaping @Sendable ([Anomaly], ActionContext) async throws -> Void
    ) {
        self.init(name, detector: detector, epoch: epoch, precondition: precondition, batch: batch) { findings, context in
            guard !findings.anomalies.isEmpty else { return }
            context.logger.debug("\(findings.anomalies.count) anomalies", metadata: ["action": "\(name)"])
            try await report(findings.anomalies, context)
        }
    }

    /// An action that sends each anomaly found to `receiver` (e.g. an AlertAgent) as
    /// an `inform` made by ``Anomaly/inform(_:)``: JSON content, language `json`,
    /// ontology `sade-anomaly`; read it back with ``Anomaly/init(message:)``.
    public init(
        _ name: String = "detect anomalies", detector: AnomalyDetector, epoch: Date, precondition: Condition? = nil,
        informing receiver: AgentIdentifier, batch: @escaping @Sendable (ActionContext) async throws -> Batch
    ) {
        self.init(name, detector: detector, epoch: epoch, precondition: precondition, batch: batch) { anomalies, context in
            for anomaly in anomalies { context.send(try anomaly.inform(receiver)) }
        }
    }

    /// The date the action takes as now.
    public func now(_ context: ActionContext) -> Date {
        epoch.addingTimeInterval(context.agent.environment.clock.elapsed.seconds)
    }

    /// Evaluates the batch, checks for missing data (unless told not to) and reports what it found.
    public func runAction(_ context: ActionContext) async throws {
        let (samples, patients) = try await batch(context)
        let now = now(context)
        var anomalies = await detector.evaluate(samples, patients: patients, at: now)
        if await checksMissingData?(context) ?? true { anomalies += await detector.checkForMissingData(at: now) }
        try await completion(Findings(samples: samples, patients: patients, now: now, anomalies: anomalies), context)
    }
}
