import Foundation

/// What the model does for an endpoint: the `action` of its contract's `x-state`, or nothing (served from its examples).
public enum EndpointAction: String, Sendable, CaseIterable {
    /// Store a new record from the request body.
    case create
    /// Answer one stored record named by the path.
    case read
    /// Answer the stored records.
    case list
    /// Remove one stored record.
    case delete
    /// Store a file sent for a record.
    case attachFile = "attach-file"
    /// Answer a stored file.
    case readFile = "read-file"
    /// Check credentials against stored records.
    case authenticate

    /// The action `contract` declares: its `x-state.action`. Nil: the contract has no state and is served from its examples.
    public static func of(_ contract: Contract) -> EndpointAction? {
        contract.source["x-state"]?["action"]?.stringValue.flatMap(EndpointAction.init(rawValue:))
    }
}
