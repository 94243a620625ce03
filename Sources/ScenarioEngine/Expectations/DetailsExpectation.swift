import ContractKit
import ContractModel

/// What the pet details screen must show.
public struct DetailsExpectation: Sendable, Equatable {
    /// `loading`, `loaded` or `error`.
    public var state: String?
    /// The error text (error state).
    public var message: String?
    /// Accepted presented values by name (status, statusColor, microchip, lastSeenDate, reward, ...); only listed names are checked.
    public var presentation: [String: [String]]?

    /// The details states a client may report.
    public static let states = ["loading", "loaded", "error"]
}
