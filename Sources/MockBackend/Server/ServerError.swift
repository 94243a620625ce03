import ContractModel
/// Why a `MockServer` could not start or stop.
public enum ServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Binding the address failed (port in use, bad host, ...).
    case bindFailed(host: String, port: Int, reason: String)
    /// `start()` was called on a server that is already running or was shut down.
    case alreadyStarted
    /// The server was never started.
    case notStarted

    /// A sentence for a person.
    public var description: String {
        switch self {
        case .bindFailed(let host, let port, let reason):
            return "could not listen on \(host):\(port): \(reason)"
        case .alreadyStarted:
            return "the server was already started; create a new MockServer to start again"
        case .notStarted:
            return "the server was never started"
        }
    }
}
