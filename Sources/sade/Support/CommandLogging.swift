import Foundation
import Logging

/// Logging for long-running commands: to standard error, so that standard output
/// carries only what the command prints; the level comes from `SADE_LOG_LEVEL`
/// (`trace` … `critical`, default `info`).
enum CommandLogging {
    /// Sets up swift-log once; touching it again does nothing.
    static let bootstrapped: Void = {
        let level = ProcessInfo.processInfo.environment["SADE_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
    }()
}
