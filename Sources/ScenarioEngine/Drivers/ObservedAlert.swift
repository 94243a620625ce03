import ContractKit

/// An alert as the client shows it.
public struct ObservedAlert: Sendable, Equatable {
    /// `noConnection` or `generic` (or whatever an external client claims).
    public var kind: String
    /// The text shown.
    public var message: String
    /// The button titles in order, when the client reports them (`nil`: not reported).
    public var buttons: [String]?

    /// An alert with this kind, text and optional button titles.
    public init(kind: String, message: String, buttons: [String]? = nil) {
        self.kind = kind
        self.message = message
        self.buttons = buttons
    }
}
