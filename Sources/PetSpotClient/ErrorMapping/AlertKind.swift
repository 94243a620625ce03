/// The one alert a failed submission shows, with its exact text and buttons.
public enum AlertKind: String, Sendable, Hashable, CaseIterable {
    /// Connectivity: offline, refused, timed out, host unreachable.
    case noConnection
    /// Everything else: 4xx, 5xx, unreadable answers.
    case generic

    /// The alert text shown to the user.
    public var message: String {
        switch self {
        case .noConnection: "No connection. Please check your network and try again."
        case .generic: "Something went wrong. Please try again later."
        }
    }

    /// The buttons, in order: "Try Again" re-runs the whole submission, "Cancel" dismisses.
    public static let buttonTitles = ["Try Again", "Cancel"]
}
