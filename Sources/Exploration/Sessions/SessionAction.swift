/// One thing the generated user does; the model drops an action the current screen does not offer (e.g. Try Again with no alert).
public enum SessionAction: Sendable, Equatable, Hashable {
    /// Type a new value into phone, email or reward.
    case edit(field: String, value: String)
    /// Tap Continue.
    case submit
    /// Tap Continue twice before the first request is answered.
    case doubleTap
    /// Tap "Try Again" in the failure alert.
    case retry
    /// Tap "Cancel" in the failure alert.
    case cancel
    /// Leave the app alone for a moment (nothing may be sent on its own).
    case idle
    /// The device loses its network (the verdicts issue's optional `deviceOffline` action).
    case goOffline
    /// The device has its network again (`deviceOnline`).
    case goOnline
}
