import Foundation

/// What a rule may read besides the request: the day the "not after today" check compares with.
public struct RuleContext: Sendable {
    /// Today in UTC as `YYYY-MM-DD`.
    public var today: String

    /// A context for `today` (`YYYY-MM-DD`, UTC).
    public init(today: String) {
        self.today = today
    }
}
