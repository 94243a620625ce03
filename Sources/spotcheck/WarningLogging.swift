import Logging

/// Logging for commands whose report is the output: only warnings and worse reach standard error (fault proxies log
/// refuse windows at info, which would interleave with the report).
enum WarningLogging {
    /// Installs the warnings-only handler; call once, first thing in `run()`.
    static func bootstrap() {
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = .warning
            return handler
        }
    }
}
