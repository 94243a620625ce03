import Foundation

/// A contract's request rules, compiled once when the contracts load (`ContractSet.requestRules`): the answers the
/// model gives to a body or query that breaks them, and what it stores from a body.
public struct RequestRules: Sendable {
    /// The JSON body's rules; nil when the request documents no JSON object body.
    public let body: BodyRules?
    /// The query parameters' rules; nil when the request documents no query parameters.
    public let query: QueryRules?
    /// Whether the contract states any answer (`x-errors`) for its request: without, every refusal is an assumption.
    public let isStated: Bool
}
