import Foundation
import MockBackend

/// One request as the target's journal recorded it, in the engine's own terms so any journal can feed it.
public struct JournalRecord: Sendable, Equatable {
    /// Position in the journal, increasing.
    public var sequence: Int
    /// The request method.
    public var method: String
    /// The request path (without query).
    public var path: String
    /// The contract id matched from method and path, if any.
    public var contract: String?
    /// The status sent, `nil` when no response was sent (stall, drop, reset).
    public var status: Int?
    /// The Basic auth user, if the request carried one.
    public var authUser: String?
    /// The fault kind applied, if any.
    public var fault: String?

    /// A record with these values.
    public init(sequence: Int, method: String, path: String, contract: String?, status: Int?, authUser: String?, fault: String?) {
        self.sequence = sequence
        self.method = method
        self.path = path
        self.contract = contract
        self.status = status
        self.authUser = authUser
        self.fault = fault
    }

    /// One line for reports, e.g. `#3 POST /api/v1/announcements (createAnnouncement) → 503 [fault status]`.
    public var line: String {
        var text = "#\(sequence) \(method) \(path)"
        if let contract { text += " (\(contract))" }
        text += " → " + (status.map(String.init) ?? "no response")
        if let authUser { text += " auth user \(authUser)" }
        if let fault { text += " [fault \(fault)]" }
        return text
    }
}
