import Dispatch
import Foundation

/// Waiting for Ctrl-C or a TERM, so long-running commands shut their servers down cleanly.
enum InterruptSignal {
    /// Returns on the first SIGINT or SIGTERM.
    static func wait() async {
        let (stream, continuation) = AsyncStream<Void>.makeStream()
        var sources: [any DispatchSourceSignal] = []
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { continuation.yield() }
            source.resume()
            sources.append(source)
        }
        for await _ in stream { break }
        sources.forEach { $0.cancel() }
    }
}
