import ContractKit
import ContractModel

/// The pet details screen as the client shows it.
public struct ObservedDetails: Sendable, Equatable {
    /// `loading`, `loaded` or `error`.
    public var state: String
    /// The error text in the error state.
    public var message: String?
    /// Presented values by name (status, statusColor, microchip, ...).
    public var presentation: [String: String]

    /// Details in this state.
    public init(state: String, message: String? = nil, presentation: [String: String] = [:]) {
        self.state = state
        self.message = message
        self.presentation = presentation
    }
}
