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
    /// The raw query string (without `?`), if the request had one.
    public var query: String?
    /// The request's `Content-Type`, if any.
    public var contentType: String?
    /// The request body as UTF-8 text (first 64 KiB), `nil` when there was none or it is not text.
    public var bodyText: String?
    /// The request body's full size in bytes.
    public var bodySize: Int
    /// The error envelope's `code` of the answer, when it was an error envelope.
    public var errorCode: String?
    /// The error envelope's `field` of the answer, when it had one.
    public var errorField: String?
    /// The answer's body as UTF-8 text (first 64 KiB), `nil` when there was none; a create's id and password live here.
    public var responseText: String?

    /// A record with these values.
    public init(sequence: Int, method: String, path: String, contract: String?, status: Int?, authUser: String?, fault: String?,
                query: String? = nil, contentType: String? = nil, bodyText: String? = nil, bodySize: Int = 0,
                errorCode: String? = nil, errorField: String? = nil, responseText: String? = nil) {
        self.sequence = sequence
        self.method = method
        self.path = path
        self.contract = contract
        self.status = status
        self.authUser = authUser
        self.fault = fault
        self.query = query
        self.contentType = contentType
        self.bodyText = bodyText
        self.bodySize = bodySize
        self.errorCode = errorCode
        self.errorField = errorField
        self.responseText = responseText
    }

    /// One line for reports: the exchange number, method, path, contract id, status, error code and field.
    public var line: String {
        var text = "#\(sequence) \(method) \(path)"
        if let query, !query.isEmpty { text += "?" + query }
        if let contract { text += " (\(contract))" }
        text += " → " + (status.map(String.init) ?? "no response")
        if let errorCode { text += " \(errorCode)" }
        if let errorField { text += " field \(errorField)" }
        if let authUser { text += " auth user \(authUser)" }
        if let fault { text += " [fault \(fault)]" }
        return text
    }
}
