import ContractKit

/// An alert as the client shows it.
public struct ObservedAlert: Sendable, Equatable {
    /// `noConnection` or `generic` (or whatever an external client claims).
    public var kind: String
    /// The text shown.
    public var message: String

    /// An alert with this kind and text.
    public init(kind: String, message: String) {
        self.kind = kind
        self.message = message
    }
}
