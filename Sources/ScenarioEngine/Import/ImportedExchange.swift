import ContractKit
import ContractModel
import Foundation
import HTTPArchive
import MockBackend

/// One HAR entry as the import sees it: the journal entry it describes and the failure it showed, as a fault rule.
public struct ImportedExchange: Sendable {
    /// The entry's 0-based index in the HAR.
    public var index: Int
    /// The entry's URL, for messages.
    public var url: String
    /// The exchange in journal form (contract matched), as recorded: `HARImport.plan` validates it, then redacts it.
    public var entry: JournalEntry
    /// The fault that reproduces what went wrong (a 5xx, no answer at all, a timeout), nil when the exchange went well.
    public var fault: JSONValue?
    /// Whether the failure was a timeout, so the replay sets a short client timeout.
    public var timedOut: Bool

    /// Reads one HAR entry; `contracts` matches it to a contract. Nothing is redacted yet: the exchange is validated
    /// as it was sent (a redacted Basic credential would fail its own check).
    public init(_ har: HAREntry, index: Int, contracts: ContractSet) {
        self.index = index
        url = har.request.url
        let converted = JournalHAR.journalEntry(har, contracts: contracts)
        entry = converted
        let marks = har.custom[JournalHAR.customKey]?.objectValue
        let error = (har.errorText ?? "").lowercased()
        timedOut = false
        if let kind = marks?["fault"]?.stringValue {
            // SpotCheck wrote this HAR: the fault is named, no guessing.
            switch kind {
            case "status": fault = converted.status.map { Self.statusFault($0, har) }
            case "stall": fault = ["kind": "stall"]; timedOut = true
            case "drop", "reset", "refuse": fault = .object(["kind": .string(kind)])
            case "delay": fault = nil
            default:
                if let status = converted.status {
                    fault = status >= 500 ? Self.statusFault(status, har) : Optional<JSONValue>.none
                } else {
                    fault = ["kind": "drop"]
                }
            }
        } else if let status = converted.status {
            // Spelled out: JSONValue is ExpressibleByNilLiteral, so a bare nil here would be JSON null, not "no fault".
            fault = status >= 500 ? Self.statusFault(status, har) : Optional<JSONValue>.none
        } else if error.contains("timed out") || error.contains("timeout") || error.contains("timed_out") {
            fault = ["kind": "stall"]
            timedOut = true
        } else {
            // Status 0 without a timeout: the connection went away (Chrome's net::ERR_EMPTY_RESPONSE, Proxyman's "connection lost").
            fault = ["kind": "drop"]
        }
    }

    /// A status fault answering as the HAR shows: the status, its Retry-After and its JSON body when kept.
    private static func statusFault(_ status: Int, _ har: HAREntry) -> JSONValue {
        var o: JSONObject = ["kind": "status", "status": .number(Double(status))]
        if let retry = har.response.header("retry-after") { o["headers"] = .object(["Retry-After": .string(retry)]) }
        if let bytes = har.response.content.bytes, let json = try? JSONValue(parsing: bytes) { o["body"] = json }
        return .object(o)
    }

    /// `entry 3 (POST https://…/photos)`.
    public var label: String { "entry \(index) (\(entry.method) \(url))" }
}
