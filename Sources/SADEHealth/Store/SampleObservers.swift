import Foundation
import Synchronization

/// The live streams of a store: each saved batch, once committed, goes to every
/// stream whose type and patient it matches and whose principal may read it.
///
/// Publishing only yields into unbounded `AsyncStream` buffers, so a slow or
/// abandoned reader never blocks a save; a stream that ends is forgotten.
package final class SampleObservers: Sendable {
    private struct Observer {
        let type: HealthType
        let patient: PatientID?
        let principal: Principal
        let continuation: AsyncStream<HealthSample>.Continuation
    }

    private let observers = Mutex<[UUID: Observer]>([:])

    /// No streams yet.
    package init() {}

    /// A stream of the samples of `type` (and `patient`) that `principal` may read.
    package func stream(of type: HealthType, patient: PatientID?, principal: Principal) -> AsyncStream<HealthSample> {
        let (stream, continuation) = AsyncStream.makeStream(of: HealthSample.self)
        let id = UUID()
        continuation.onTermination = { [weak self] _ in
            _ = self?.observers.withLock { $0.removeValue(forKey: id) }
        }
        observers.withLock { $0[id] = Observer(type: type, patient: patient, principal: principal, continuation: continuation) }
        return stream
    }

    /// How many streams are open.
    package var count: Int { observers.withLock { $0.count } }

    /// Hands committed samples to the matching streams. A correlation reaches the
    /// streams of its type, and its members those of the member types.
    package func publish(_ samples: [HealthSample], grants: [AccessGrant]) {
        let current = observers.withLock { Array($0.values) }
        guard !current.isEmpty else { return }
        var candidates: [HealthSample] = []
        for sample in samples {
            candidates.append(sample)
            if case .correlation(let members) = sample.value { candidates.append(contentsOf: members) }
        }
        for observer in current {
            let policy = AccessPolicy(observer.principal, grants: grants)
            for sample in candidates
            where sample.type == observer.type && (observer.patient.map { $0 == sample.patient } ?? true)
                && policy.allows(.read, sample.type, of: sample.patient)
            {
                observer.continuation.yield(sample)
            }
        }
    }

    deinit {
        for observer in observers.withLock({ Array($0.values) }) {
            observer.continuation.finish()
        }
    }
}
