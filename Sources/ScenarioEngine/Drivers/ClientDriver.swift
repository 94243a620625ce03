import Foundation

/// A way to run the client under check: the built-in PetSpotClient in-process, or an external process speaking JSON lines.
public protocol ClientDriver: Sendable {
    /// A short description for reports, e.g. `PetSpotClient (in-process)`.
    var description: String { get }

    /// Opens a fresh client for one scenario: a new form filled with the report, talking to `context.baseURL`.
    func open(_ context: ClientContext) async throws(DriverError) -> any ClientSession
}
