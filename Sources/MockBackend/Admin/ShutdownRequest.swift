import ContractModel
/// A request to stop the server that came over the admin API (`POST /__spotcheck/shutdown`), for the command to wait on.
public final class ShutdownRequest: Sendable {
    private let stream: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    /// A request nobody has made yet.
    public init() {
        (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Asks the waiting command to stop.
    public func request() {
        continuation.yield()
    }

    /// Returns once a shutdown was requested.
    public func wait() async {
        for await _ in stream { return }
    }
}
