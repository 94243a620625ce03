import Foundation

/// One client instance serving one scenario; actions run one at a time, in step order.
public protocol ClientSession: Sendable {
    /// Performs a user action and reports what the client shows afterwards.
    func perform(_ action: ClientAction) async throws(DriverError) -> ClientObservation

    /// Ends the client; called once, also after failures.
    func close() async

    /// What the client wrote for people (an external client's stderr tail), attached to every failure report.
    func diagnostics() async -> String?
}

extension ClientSession {
    /// In-process clients have no separate diagnostics stream.
    public func diagnostics() async -> String? { nil }
}
