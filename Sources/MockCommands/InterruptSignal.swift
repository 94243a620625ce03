import Dispatch
import Foundation

/// Ctrl-C and TERM, caught from `arm()` on, so long-running commands shut their servers down cleanly.
///
/// Armed before the command announces it is listening: a script that sends TERM as soon as it reads "Listening on"
/// must not hit the moment before the handlers exist, when the signal was ignored and lost and the server ran on for
/// ever (seen in `bench/datadir_start.py`).
final class InterruptSignal: @unchecked Sendable {
    // The sources are only created in `arm()` and cancelled in `wait()`; DispatchSource is thread-safe.
    private let stream: AsyncStream<Void>
    private let sources: [any DispatchSourceSignal]

    private init(stream: AsyncStream<Void>, sources: [any DispatchSourceSignal]) {
        self.stream = stream
        self.sources = sources
    }

    /// Starts catching SIGINT and SIGTERM; returns once both handlers are registered, so no later signal is lost.
    static func arm() async -> InterruptSignal {
        let (stream, continuation) = AsyncStream<Void>.makeStream()
        var sources: [any DispatchSourceSignal] = []
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { continuation.yield() }
            await withCheckedContinuation { (registered: CheckedContinuation<Void, Never>) in
                source.setRegistrationHandler { registered.resume() }
                source.resume()
            }
            sources.append(source)
        }
        return InterruptSignal(stream: stream, sources: sources)
    }

    /// Returns on the first SIGINT or SIGTERM since `arm()`.
    func wait() async {
        for await _ in stream { break }
        sources.forEach { $0.cancel() }
    }
}
