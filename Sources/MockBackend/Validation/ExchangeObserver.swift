import ContractKit
import ContractModel
import NIOCore

/// Looks at every exchange the server journals: validates it before it is stored, and learns from it once stored
/// (coverage, recording). The server calls it on the connection's event loop, so it must be quick.
public protocol ExchangeObserver: Sendable {
    /// The violations to store on `entry`; `requestBody` and `responseBody` are the whole bodies (the entry holds their
    /// start), and `parsedRequestBody` the request body as the responder already parsed it (nil when it did not).
    func inspect(_ entry: JournalEntry, requestBody: ByteBuffer, parsedRequestBody: JSONValue?, responseBody: ByteBuffer?) -> [ExchangeViolation]

    /// Called with the entry as the journal stored it (sequence assigned, violations filled).
    func recorded(_ entry: JournalEntry)

    /// The admin API changed the backend's state behind the traffic's back: `ids` were deleted or replaced, or, when
    /// nil, everything was (a reset). What the observer learnt about those records no longer holds.
    func backendForgot(ids: [String]?)
}

extension ExchangeObserver {
    /// Nothing remembered, nothing to forget.
    public func backendForgot(ids: [String]?) {}
}
