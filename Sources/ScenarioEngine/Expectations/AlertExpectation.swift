import ContractKit
import ContractModel

/// The alert a client must show.
public struct AlertExpectation: Sendable, Equatable {
    /// The accepted kinds, `noConnection` or `generic`; two only where platforms legitimately differ (e.g. a dropped connection).
    public var kinds: [String]
    /// The exact text shown; when absent, the standard text of the kind the client showed.
    public var message: String?
    /// The button titles; checked when the client reports them, as a set unless `buttonOrder` pins the order.
    public var buttons: [String]?
    /// Why the buttons must come in the listed order; `nil` compares them as a set (the seeds name the buttons, never their order).
    public var buttonOrder: String?

    /// The alert kinds and their exact texts from the PetSpot specification.
    public static let standardMessages = [
        "noConnection": "No connection. Please check your network and try again.",
        "generic": "Something went wrong. Please try again later.",
    ]
}
