import Foundation

/// What a client needs to know to start serving a scenario.
public struct ClientContext: Sendable {
    /// The server the client talks to (the embedded mock backend or the fault proxy).
    public var baseURL: URL
    /// The client's settings (request timeout).
    public var settings: ClientSettings
    /// What the user entered in steps 1 to 4.
    public var report: ReportData
    /// The scenario's name, for logs of external clients.
    public var scenarioName: String
    /// The client profile judging the session (e.g. `ios-missing-pet`), so an adapter serving several can tell them apart.
    public var profile: String?
    /// The profile's flow (e.g. `reportMissing`): the screen an adapter opens and fills from `report`.
    public var flow: String?

    /// A context with these values.
    public init(baseURL: URL, settings: ClientSettings, report: ReportData, scenarioName: String) {
        self.baseURL = baseURL
        self.settings = settings
        self.report = report
        self.scenarioName = scenarioName
    }
}
