/// An analytics event, identified by its name.
public struct AnalyticsEvent: Sendable, Hashable {
    /// The event name, e.g. `missing_pet.step4_completed`.
    public let name: String

    /// Creates an event.
    public init(name: String) {
        self.name = name
    }

    /// Emitted once per fully successful step 4 submission.
    public static let step4Completed = AnalyticsEvent(name: "missing_pet.step4_completed")
}

/// Where the form reports analytics events; the app injects its pipeline.
@MainActor
public protocol AnalyticsSink: AnyObject {
    /// Records one event.
    func record(_ event: AnalyticsEvent)
}
