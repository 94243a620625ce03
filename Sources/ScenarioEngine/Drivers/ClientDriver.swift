import Foundation

/// A way to run the client under check: the built-in PetSpotClient in-process, or an external process speaking JSON lines.
public protocol ClientDriver: Sendable {
    /// A short description for reports, e.g. `PetSpotClient (in-process)`.
    var description: String { get }

    /// Opens a fresh client for one scenario: a new form filled with the report, talking to `context.baseURL`.
    func open(_ context: ClientContext) async throws(DriverError) -> any ClientSession
}

/// One client instance serving one scenario; actions run one at a time, in step order.
public protocol ClientSession: Sendable {
    /// Performs a user action and reports what the client shows afterwards.
    func perform(_ action: ClientAction) async throws(DriverError) -> ClientObservation

    /// Ends the client; called once, also after failures.
    func close() async
}

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

    /// A context with these values.
    public init(baseURL: URL, settings: ClientSettings, report: ReportData, scenarioName: String) {
        self.baseURL = baseURL
        self.settings = settings
        self.report = report
        self.scenarioName = scenarioName
    }
}
