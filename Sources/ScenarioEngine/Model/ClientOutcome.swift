import ContractKit
import ContractModel

/// The outcome a client reports for an action.
public enum ClientOutcome: String, Sendable, CaseIterable {
    /// The action completed (submission sent, details or list loaded).
    case success
    /// The action failed and the client shows an alert or error state.
    case failure
    /// Client-side validation rejected the input; nothing may be sent.
    case invalid
    /// The alert was dismissed with Cancel.
    case cancelled
    /// An input was changed.
    case edited
    /// A device condition was applied (`deviceOffline`, `deviceOnline`).
    case done
}
