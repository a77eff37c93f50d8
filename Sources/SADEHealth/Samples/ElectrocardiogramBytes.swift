import Foundation

/// An ECG waveform's voltages as stored by every backend: chunks of ``chunkSize``
/// little-endian Float64 values (32 KiB), so a 30 s recording at 512 Hz is 4 rows,
/// never 15,360, and every voltage reads back bit for bit.
package enum ElectrocardiogramBytes {
    /// Voltages per chunk.
    package static let chunkSize = 4096

    /// The voltages as little-endian Float64 bytes.
    package static func encode(_ voltages: ArraySlice<Double>) -> Data {
        var data = Data(capacity: voltages.count * 8)
        for voltage in voltages {
            withUnsafeBytes(of: voltage.bitPattern.littleEndian) { data.append(contentsOf: $0) }
        }
        return data
    }

    /// Appends the voltages of one chunk.
    ///
    /// - Throws: ``HealthError/storage(_:)`` when the bytes are not whole Float64 values.
    package static func decode(_ data: Data, into voltages: inout [Double]) throws(HealthError) {
        guard data.count % 8 == 0 else { throw .storage("an ECG chunk of \(data.count) bytes is not a whole number of Float64") }
        data.withUnsafeBytes { bytes in
            for offset in stride(from: 0, to: bytes.count, by: 8) {
                voltages.append(Double(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))))
            }
        }
    }
}
