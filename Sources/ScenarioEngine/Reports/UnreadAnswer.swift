import ContractKit
import ContractModel
import Foundation

/// A 2xx answer SpotCheck served that the client did not present: the report names its unusual values (from the
/// contract schemas) and, when the client reported it, where its decoding failed.
public struct UnreadAnswer: Sendable, Equatable {
    /// The journal line of the answer, e.g. `#2 GET /api/v1/announcements/… (getAnnouncement) → 200`.
    public var record: String
    /// One line per unusual value, e.g. `/photoUrl: null (nullable in the schema)`.
    public var unusualValues: [String]
    /// Where the client's decoder failed (protocol `cause.decodingPath`), when it said.
    public var decodingPath: String?

    /// An unread answer with these values.
    public init(record: String, unusualValues: [String], decodingPath: String? = nil) {
        self.record = record
        self.unusualValues = unusualValues
        self.decodingPath = decodingPath
    }

    /// The lines the failure report prints.
    public var lines: [String] {
        var out = ["the client did not present \(record), an answer SpotCheck served with 2xx; its unusual values:"]
        out += unusualValues.isEmpty ? ["  (none: every value is a common one)"] : unusualValues.map { "  " + $0 }
        out.append(decodingPath.map { "the client says decoding failed at: \($0)" }
            ?? "the client did not say where decoding failed (protocol: cause.decodingPath)")
        return out
    }

    /// The answer the client could not present: the step's last answer, when it is a 2xx JSON answer served unaltered
    /// (no fault but a delay) whose contract describes its body, and `observation` shows a failure to present it that
    /// no transport or status cause explains.
    static func find(in records: [JournalRecord], observation: ClientObservation, mismatches: [Mismatch], contracts: ContractSet) -> UnreadAnswer? {
        let failedToPresent = observation.outcome == .failure || observation.details?.state == "error" || observation.cause?.kind == .decoding
            || mismatches.contains { $0.actual == "not presented" }
        guard failedToPresent, observation.cause == nil || observation.cause?.kind == .decoding || observation.cause?.kind == .other,
              let record = records.last, let status = record.status, (200..<300).contains(status),
              record.fault == nil || record.fault == "delay",
              let text = record.responseText, let body = try? JSONValue(parsing: Data(text.utf8)),
              let schema = record.contract.flatMap(contracts.contract(id:))?.responses.first(where: { $0.status == status })?.body else { return nil }
        let values = UnusualValues(contracts: contracts).describe(body, rawText: text, schema: schema)
        return UnreadAnswer(record: record.line, unusualValues: values, decodingPath: observation.cause?.decodingPath)
    }
}
