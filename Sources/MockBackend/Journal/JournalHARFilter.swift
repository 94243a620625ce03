import ContractModel
import Foundation

/// Which journal entries a HAR export takes: the dashboard's traffic filters, plus a sequence to continue after.
public struct JournalHARFilter: Sendable, Equatable {
    /// Only entries matched to this contract.
    public var contract: String?
    /// `5xx`, a status prefix such as `50` or `503`, or `none` for exchanges that got no answer.
    public var status: String?
    /// Only failures as the dashboard marks them (no answer, 4xx/5xx, a fault or a violation).
    public var failuresOnly = false
    /// Only entries with a greater sequence number.
    public var since: Int?

    /// A filter; every criterion off by default.
    public init(contract: String? = nil, status: String? = nil, failuresOnly: Bool = false, since: Int? = nil) {
        self.contract = contract
        self.status = status
        self.failuresOnly = failuresOnly
        self.since = since
    }

    /// Whether `entry` passes every criterion given.
    public func accepts(_ entry: JournalEntry) -> Bool {
        if let contract, entry.contract != contract { return false }
        if let since, entry.sequence <= since { return false }
        if failuresOnly, !JournalEntrySummary(entry).failure { return false }
        if let status = status?.trimmingCharacters(in: .whitespaces), !status.isEmpty {
            let text = entry.status.map(String.init) ?? "none"
            if status.count == 3, status.lowercased().hasSuffix("xx") {
                if text.first != status.first { return false }
            } else if !text.hasPrefix(status) {
                return false
            }
        }
        return true
    }
}
