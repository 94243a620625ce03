/// How much of each exchange the traffic monitor checks against the contracts.
///
/// `serve` checks requests only by default: its answers come from the contracts themselves (the conformance suite and
/// the mock's self-check cover them), so checking them on every exchange would halve its throughput to find nothing.
/// `proxy` checks everything by default, because there the answers come from a server nobody here wrote.
public enum ValidationScope: String, Sendable, CaseIterable {
    /// Nothing is validated; coverage and recording still run.
    case off
    /// The client's side only: parameters, headers, auth scheme, body schema, multipart parts, undocumented traffic.
    case requests
    /// Both sides and the cross-request invariants.
    case all
}
