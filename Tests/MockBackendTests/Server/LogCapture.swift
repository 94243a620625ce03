import Foundation
import Logging

/// Collects log messages in memory so tests can read them.
final class LogCapture: @unchecked Sendable {
    // Guarded by `lock`.
    private var stored: [String] = []
    private let lock = NSLock()

    var messages: [String] {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }

    func append(_ message: String) {
        lock.lock()
        stored.append(message)
        lock.unlock()
    }

    /// A logger writing into this capture.
    var logger: Logger {
        Logger(label: "test") { _ in CaptureHandler(capture: self) }
    }
}

/// A swift-log handler appending to a `LogCapture`.
struct CaptureHandler: LogHandler {
    let capture: LogCapture
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        capture.append(event.message.description)
    }
}
