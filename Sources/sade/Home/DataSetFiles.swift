import ArgumentParser
import Foundation
import SADEHome
import SADEProcess

/// `--format casas|ordonez|mavpad` as an option.
struct DataSetFormat: ExpressibleByArgument {
    let value: HomeDataSet.Format

    init(_ value: HomeDataSet.Format) { self.value = value }

    init?(argument: String) {
        guard let format = HomeDataSet.Format(rawValue: argument.lowercased()) else { return nil }
        value = format
    }

    static var allValueStrings: [String] { HomeDataSet.Format.allCases.map(\.rawValue) }

    /// `casas` in the help's "default:", not the struct's description.
    var defaultValueDescription: String { value.rawValue }

    static let casas = DataSetFormat(.casas)
}

/// The files of a data set released as a directory or a `.tar.gz` of day files.
enum DataSetFiles {
    /// The `*.data` files in `path` (a directory, or a `.tar.gz` unpacked with tar into a
    /// temporary directory removed afterwards): name and text.
    static func dayFiles(_ path: String) async throws -> [(name: String, text: String)] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw ValidationError("no file or directory \(path)") }
        if isDirectory.boolValue { return try read(directory: path) }
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("sade-dataset-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: temporary) }
        let tar = try ChildProcess(URL(fileURLWithPath: "/usr/bin/env"), ["tar", "-xzf", path, "-C", temporary])
        let result = try await tar.finish()
        guard result.status == 0 else { throw ValidationError("\(path) is neither a directory nor a .tar.gz tar could unpack: \(result.error.suffix(400))") }
        return try read(directory: temporary)
    }

    private static func read(directory: String) throws -> [(name: String, text: String)] {
        guard let walker = FileManager.default.enumerator(atPath: directory) else { throw ValidationError("cannot list \(directory)") }
        var files: [(name: String, text: String)] = []
        for case let relative as String in walker where relative.hasSuffix(".data") {
            let path = (directory as NSString).appendingPathComponent(relative)
            do { files.append(((relative as NSString).lastPathComponent, try String(contentsOfFile: path, encoding: .utf8))) } catch {
                throw ValidationError("cannot read \(path): \(error.localizedDescription)")
            }
        }
        guard !files.isEmpty else { throw ValidationError("no .data day files in \(directory)") }
        return files
    }
}
