import AsyncHTTPClient
import Foundation
import NIOCore

/// When the live event stream (`GET /api/v1/events`, Server-Sent Events) pushed the
/// first `alert` of each patient, for the alert-latency probe: the stream is read by a
/// task of its own, and callers wait for a patient's alert with a limit.
actor AlertArrivals {
    private var arrived: [String: ContinuousClock.Instant] = [:]
    private var waiters: [String: CheckedContinuation<ContinuousClock.Instant?, Never>] = [:]
    private var reader: Task<Void, Never>?

    /// Opens the stream as the holder of `token` on `server` and starts reading it;
    /// returns once the server has answered with the stream's head. Every kind of
    /// event, or only `types` (`alert`).
    func open(server: String, token: String, client: HTTPClient, types: String? = nil) async throws {
        var request = HTTPClientRequest(url: "\(server)/api/v1/events" + (types.map { "?types=\($0)" } ?? ""))
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        request.headers.add(name: "Accept", value: "text/event-stream")
        let response = try await client.execute(request, timeout: .hours(24))
        guard response.status == .ok else { throw BenchError.unexpected("the event stream answered \(response.status)") }
        reader = Task { [weak self] in
            var lines = ServerSentEventLines()
            do {
                for try await chunk in response.body {
                    for alert in lines.alerts(in: chunk) { await self?.record(alert, at: .now) }
                }
                await self?.streamEnded("the server closed it")
            } catch {
                await self?.streamEnded("\(error)")
            }
        }
    }

    /// Why the stream ended, if it did before ``close()``.
    private(set) var ended: String?

    private func streamEnded(_ reason: String) {
        guard reader?.isCancelled == false else { return }
        ended = reason
    }

    /// Stops reading the stream.
    func close() {
        reader?.cancel()
        for waiter in waiters.values { waiter.resume(returning: nil) }
        waiters = [:]
    }

    /// When the first alert about `patient` arrived; waits for it up to `limit`.
    func arrival(of patient: String, within limit: Duration) async -> ContinuousClock.Instant? {
        if let known = arrived[patient] { return known }
        let timeout = Task { [weak self] in
            try? await Task.sleep(for: limit)
            await self?.give(up: patient)
        }
        defer { timeout.cancel() }
        return await withCheckedContinuation { waiters[patient] = $0 }
    }

    private func record(_ patient: String, at instant: ContinuousClock.Instant) {
        guard arrived[patient] == nil else { return }
        arrived[patient] = instant
        waiters.removeValue(forKey: patient)?.resume(returning: instant)
    }

    private func give(up patient: String) {
        waiters.removeValue(forKey: patient)?.resume(returning: nil)
    }
}

/// Splits a Server-Sent Events byte stream into lines and picks the patients of the
/// `alert` events (their `data:` is a JSON object with `patient`). Bytes are scanned as
/// they are and only an alert's data is read as text: a dashboard's stream carries
/// every sample, and the reader shares the cores with the servers it measures.
struct ServerSentEventLines {
    /// The bytes of the line not ended yet.
    private var partial: [UInt8] = []
    private var isAlert = false
    private var data: [UInt8] = []

    /// The patients of the alert events completed by `chunk`.
    mutating func alerts(in chunk: ByteBuffer) -> [String] {
        var patients: [String] = []
        chunk.withUnsafeReadableBytes { bytes in
            var start = bytes.startIndex
            while let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) {
                if partial.isEmpty {
                    take(line: bytes[start..<end], into: &patients)
                } else {
                    partial += bytes[start..<end]
                    take(line: partial[...], into: &patients)
                    partial.removeAll(keepingCapacity: true)
                }
                start = end + 1
            }
            partial += bytes[start...]
        }
        return patients
    }

    private mutating func take<Line: Collection<UInt8>>(line: Line, into patients: inout [String]) {
        if line.isEmpty || line.elementsEqual([UInt8(ascii: "\r")]) {  // the event is complete
            if isAlert, let object = try? JSONSerialization.jsonObject(with: Data(data)) as? [String: Any], let patient = object["patient"] as? String {
                patients.append(patient)
            }
            (isAlert, data) = (false, [])
        } else if line.starts(with: Self.eventField) {
            let name = line.dropFirst(Self.eventField.count).filter { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\r") }
            isAlert = name.elementsEqual(Self.alertName)
        } else if line.starts(with: Self.dataField), isAlert {  // the server names the event before its data
            data += line.dropFirst(Self.dataField.count)
        }
    }

    private static let eventField = Array("event:".utf8)
    private static let dataField = Array("data:".utf8)
    private static let alertName = Array("alert".utf8)
}
