import NIOCore

/// Looks at every exchange the server journals: validates it before it is stored, and learns from it once stored
/// (coverage, recording). The server calls it on the connection's event loop, so it must be quick.
public protocol ExchangeObserver: Sendable {
    /// The violations to store on `entry`; `requestBody` and `responseBody` are the whole bodies (the entry holds their start).
    func inspect(_ entry: JournalEntry, requestBody: ByteBuffer, responseBody: ByteBuffer?) -> [ExchangeViolation]

    /// Called with the entry as the journal stored it (sequence assigned, violations filled).
    func recorded(_ entry: JournalEntry)
}
