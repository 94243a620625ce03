import NIOPosix

/// Request ids for an unseeded store, drawn without a system call or a lock.
///
/// A request id must be unique in practice, not secret (it is echoed in every answer), so each thread keeps its own
/// SplitMix64 stream seeded once from the system generator. One `getrandom` per request was 2 % of a GET's CPU, and a
/// shared generator behind a lock made the event loops wait for each other.
enum RequestIDSource {
    private final class Stream: @unchecked Sendable {
        // Only ever touched by the thread that owns it (see `ThreadSpecificVariable`).
        var random: ModelRandom = {
            var system = SystemRandomNumberGenerator()
            return ModelRandom(seed: system.next())
        }()
    }

    private static let streams = ThreadSpecificVariable<Stream>()

    /// A fresh 10-character request id.
    static func next() -> String {
        let stream: Stream
        if let existing = streams.currentValue {
            stream = existing
        } else {
            stream = Stream()
            streams.currentValue = stream
        }
        return stream.random.requestID()
    }
}
