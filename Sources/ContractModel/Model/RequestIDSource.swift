import Foundation

/// Request ids for an unseeded store, drawn without a system call or a lock.
///
/// A request id must be unique in practice, not secret (it is echoed in every answer), so each thread keeps its own
/// SplitMix64 stream seeded once from the system generator. One `getrandom` per request was 2 % of a GET's CPU, and a
/// shared generator behind a lock made the event loops wait for each other.
enum RequestIDSource {
    private final class Stream {
        // Only ever touched by the thread that owns it (the thread-specific key below).
        var random: ModelRandom = {
            var system = SystemRandomNumberGenerator()
            return ModelRandom(seed: system.next())
        }()
    }

    /// The key of each thread's stream; the destructor releases a thread's stream when the thread ends.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let made = pthread_key_create(&key) { pointer in
            #if canImport(Darwin)
                Unmanaged<Stream>.fromOpaque(pointer).release()
            #else
                if let pointer { Unmanaged<Stream>.fromOpaque(pointer).release() }
            #endif
        }
        precondition(made == 0, "no thread-specific key for request ids (pthread_key_create: \(made))")
        return key
    }()

    /// A fresh 10-character request id.
    static func next() -> String {
        if let pointer = pthread_getspecific(key) {
            return Unmanaged<Stream>.fromOpaque(pointer).takeUnretainedValue().random.requestID()
        }
        let stream = Stream()
        pthread_setspecific(key, Unmanaged.passRetained(stream).toOpaque())
        return stream.random.requestID()
    }
}
