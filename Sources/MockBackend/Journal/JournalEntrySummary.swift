import ContractModel
import Foundation

/// The list-row view of a journal entry that the event stream sends: everything but headers and bodies.
///
/// Bodies can be 64 KiB each, so a live list at 1,000 exchanges per second gets the summary and asks
/// `GET /__spotcheck/journal/{sequence}` for the rest when a row is opened.
public struct JournalEntrySummary: Sendable, Codable, Equatable {
    /// See `JournalEntry`.
    public var sequence: Int
    /// When the request head arrived, ISO 8601 with milliseconds.
    public var time: String
    /// The request method.
    public var method: String
    /// The path with its query string.
    public var target: String
    /// The matched contract id, if any.
    public var contract: String?
    /// The status sent, nil when none was.
    public var status: Int?
    /// The fault kind applied, if any.
    public var fault: String?
    /// The rule that fired, if any.
    public var rule: String?
    /// Milliseconds until the outcome was decided.
    public var durationMs: Int
    /// The error envelope's code, if any.
    public var errorCode: String?
    /// The error envelope's field, if any.
    public var errorField: String?
    /// The request body's full size in bytes (0 without a body).
    public var requestBytes: Int
    /// The response body's full size in bytes (0 without a body).
    public var responseBytes: Int
    /// Contract violations found for the exchange.
    public var violations: [ExchangeViolation]
    /// Whether the exchange failed from a client's point of view: no answer, an error status, a fault or a violation.
    public var failure: Bool

    /// The summary of an entry.
    public init(_ entry: JournalEntry) {
        sequence = entry.sequence
        time = JournalEntry.formatTime(entry.time)
        method = entry.method
        target = entry.target
        contract = entry.contract
        status = entry.status
        fault = entry.fault
        rule = entry.rule
        durationMs = entry.durationMs
        errorCode = entry.errorCode
        errorField = entry.errorField
        requestBytes = entry.requestBody?.size ?? 0
        responseBytes = entry.responseBody?.size ?? 0
        violations = entry.violations
        failure = (entry.status.map { $0 >= 400 } ?? true) || entry.fault != nil || entry.violations.contains(where: \.isViolation)
    }

}
