import Foundation

extension HomeService {
    /// Asks actuator `device` of `flat` for `value` (switch 0/1, dimmer and shades 0–100)
    /// and waits until the device reports it (the gateway carries the command out and
    /// posts the new state), or throws ``ActuatorError/timedOut`` after `timeout`.
    public func call(device id: DeviceID, flat: FlatID, value: Double, timeout: Duration = .seconds(10)) async throws -> StateEvent {
        let device = try await store.flat(flat).device(id)
        guard let device else { throw HomeError.unknownDevice(id) }
        guard device.kind.isActuator else { throw ActuatorError.notAnActuator(device.entityID) }
        let context = UUID()
        let timer = Task { [clock] in
            try await clock.clock.sleep(for: timeout)
            self.expireCall(context)
        }
        defer { timer.cancel() }
        // Registered and published in one step on the actor: no confirmation can slip in between.
        let event: StateEvent? = await withCheckedContinuation { continuation in
            pending[context] = PendingCall(device: id, value: value, continuation: continuation)
            events.publish(.serviceCalled(flat: flat, device: device, value: value, context: context))
        }
        guard let event else { throw ActuatorError.timedOut(device.entityID, timeout) }
        return event
    }

    private func expireCall(_ context: UUID) {
        pending.removeValue(forKey: context)?.continuation.resume(returning: nil)
    }

    /// Resolves the calls that `batch` confirms.
    func confirmCalls(_ batch: [StateEvent]) {
        guard !pending.isEmpty else { return }
        for event in batch {
            for (context, call) in pending where call.device == event.device && abs(call.value - event.value) < 0.5 {
                pending.removeValue(forKey: context)
                call.continuation.resume(returning: event)
            }
        }
    }
}

/// A command waiting for its device's confirmation.
struct PendingCall {
    let device: DeviceID
    let value: Double
    let continuation: CheckedContinuation<StateEvent?, Never>
}

/// Why an actuator command failed.
public enum ActuatorError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The device senses; it cannot be told anything.
    case notAnActuator(String)
    /// The device did not report the new value in time.
    case timedOut(String, Duration)

    public var description: String {
        switch self {
        case .notAnActuator(let entity): "\(entity) is a sensor, not an actuator"
        case .timedOut(let entity, let timeout): "\(entity) did not confirm the command within \(timeout)"
        }
    }
}
