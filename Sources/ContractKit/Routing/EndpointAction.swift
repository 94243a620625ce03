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

    /// The action `contract` declares: its `x-state.action`, else (until every contract states it) the interim table.
    /// Nil: the contract has no state and is served from its examples.
    public static func of(_ contract: Contract) -> EndpointAction? {
        if let name = contract.source["x-state"]?["action"]?.stringValue { return EndpointAction(rawValue: name) }
        if contract.source["x-state"] != nil { return nil }
        return interimActions[contract.id]
    }

    // MARK: - INTERIM (issue 27): remove when the contracts carry `x-state`.
    /// The actions of the announcement contracts until their files say `x-state` (the state helper's branch adds it);
    /// a contract's own `x-state` always wins. Delete this table, and its use in `of(_:)`, when that lands.
    static let interimActions: [String: EndpointAction] = [
        "createAnnouncement": .create,
        "getAnnouncement": .read,
        "listAnnouncements": .list,
        "deleteAnnouncement": .delete,
        "adminDeleteAnnouncement": .delete,
        "uploadPhoto": .attachFile,
        "getImage": .readFile,
    ]
}
