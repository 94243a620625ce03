/// What the admin API asks of the backend behind the server.
public protocol AdminHooks: Sendable {
    /// Empties the backend's store (`POST /__spotcheck/reset`).
    func reset() async
}
