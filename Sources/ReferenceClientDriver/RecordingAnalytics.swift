import ScenarioEngine
import PetSpotClient

/// Collects the form's analytics events so each answer reports those emitted since the previous one.
@MainActor
final class RecordingAnalytics: AnalyticsSink {
    private var events: [String] = []

    func record(_ event: AnalyticsEvent) { events.append(event.name) }

    /// The events since the last call, oldest first.
    func drain() -> [String] {
        defer { events = [] }
        return events
    }
}
