import ContractModel
/// Why a host to bind could not be judged loopback or not: it does not resolve.
public struct HostResolutionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The host as given, e.g. `127.nonexistent.invalid`.
    public let host: String
    /// The resolver's reason, e.g. "Name or service not known".
    public let reason: String

    /// A sentence for a person.
    public var description: String {
        "--host \(host) does not resolve (\(reason)); give an IP address such as 127.0.0.1, or a name this machine resolves"
    }
}
