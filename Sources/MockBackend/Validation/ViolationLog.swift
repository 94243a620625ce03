import ContractKit
import ContractModel
import Foundation

/// The run's tally of exchanges and violations, kept beside the journal so a long run's totals survive the journal's ring.
public final class ViolationLog: Sendable {
    /// One violation with the exchange it was found in.
    public struct Item: Sendable {
        /// The journal sequence number of the exchange.
        public var sequence: Int
        /// `POST /api/v1/items`.
        public var request: String
        /// The status sent, if any.
        public var status: Int?
        /// The violation.
        public var violation: ExchangeViolation
    }

    /// Counters of a run.
    public struct Totals: Sendable, Equatable {
        /// Exchanges validated.
        public var exchanges = 0
        /// Exchanges with at least one real violation.
        public var failedExchanges = 0
        /// Real violations (undocumented traffic included).
        public var violations = 0
        /// Of those, reports of undocumented traffic.
        public var undocumented = 0
        /// Differences labelled as listed known defects.
        public var knownDefects = 0
        /// Differences from answers the model assumed where the contracts state nothing (not violations).
        public var notes = 0
    }

    private struct State {
        var totals = Totals()
        /// A ring once full (like the journal's): `start` is the oldest, so dropping one never shifts the others.
        var items: [Item] = []
        var start = 0

        var ordered: [Item] { Array(items[start...] + items[..<start]) }
        var dropped = 0
    }

    /// The most items kept; the totals keep counting beyond it.
    public let limit: Int
    private let state = Locked(State())

    /// An empty log keeping at most `limit` items.
    public init(limit: Int = 5000) {
        self.limit = limit
    }

    /// Adds a validated exchange and its findings.
    public func add(_ entry: JournalEntry) {
        state.withLock { s in
            s.totals.exchanges += 1
            let real = entry.violations.filter(\.isViolation)
            if !real.isEmpty { s.totals.failedExchanges += 1 }
            s.totals.violations += real.count
            s.totals.undocumented += real.filter(\.isUndocumented).count
            let notes = entry.violations.filter(\.isNote).count
            s.totals.notes += notes
            s.totals.knownDefects += entry.violations.count - real.count - notes
            for violation in entry.violations {
                let item = Item(sequence: entry.sequence, request: "\(entry.method) \(entry.target)", status: entry.status, violation: violation)
                if s.items.count < limit {
                    s.items.append(item)
                } else {
                    s.items[s.start] = item
                    s.start = (s.start + 1) % limit
                    s.dropped += 1
                }
            }
        }
    }

    /// The counters so far.
    public var totals: Totals { state.withLock { $0.totals } }

    /// The kept items, oldest first.
    public var items: [Item] { state.withLock { $0.ordered } }

    /// `{"totals": {...}, "violations": [...]}` as `GET /__spotcheck/violations` serves it.
    public func json() -> JSONValue {
        let (totals, items, dropped) = state.withLock { ($0.totals, $0.ordered, $0.dropped) }
        return .object([
            "totals": .object([
                "exchanges": .number(Double(totals.exchanges)), "failedExchanges": .number(Double(totals.failedExchanges)),
                "violations": .number(Double(totals.violations)), "undocumented": .number(Double(totals.undocumented)),
                "knownDefects": .number(Double(totals.knownDefects)), "notes": .number(Double(totals.notes)),
                "dropped": .number(Double(dropped)),
            ]),
            "violations": .array(items.map(Self.json)),
        ])
    }

    static func json(_ item: Item) -> JSONValue {
        let v = item.violation
        return .object([
            "sequence": .number(Double(item.sequence)), "request": .string(item.request),
            "status": item.status.map { .number(Double($0)) } ?? .null,
            "contract": v.contract.map(JSONValue.string) ?? .null, "pointer": .string(v.pointer),
            "expected": .string(v.expected), "got": .string(v.got), "side": .string(v.side.rawValue),
            "knownDefect": v.knownDefect.map(JSONValue.string) ?? .null,
            "assumptions": v.assumptions.map { .array($0.map(JSONValue.string)) } ?? .null,
        ])
    }
}
