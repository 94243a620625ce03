import ContractKit
import ContractModel
import Foundation

/// Which documented answers (contract × status and error code) the traffic showed, fed from journal entries.
///
/// The answers never observed are what a team's tests are missing. A proxy can be given the coverage a mock run wrote
/// (`serve --coverage-out`), and then lists apart the answers seen only from the mock, never from the real server.
public final class ContractCoverage: Sendable {
    /// One documented answer.
    public struct Answer: Sendable, Hashable {
        /// The contract id.
        public var contract: String
        /// The status.
        public var status: Int
        /// The error code, for error answers.
        public var code: String?

        /// A contract id, a status and an error code, e.g. `createThing 400 BAD_THING`.
        public var label: String { "\(contract) \(status)" + (code.map { " \($0)" } ?? "") }
    }

    private struct State {
        var counts: [Answer: Int] = [:]
        /// Answers of documented endpoints that their contract does not list.
        var undocumentedAnswers: [Answer: Int] = [:]
        /// Exchanges with endpoints no contract documents, by `METHOD path` (at most `endpointLimit` kept apart).
        var undocumentedEndpoints: [String: Int] = [:]
    }

    /// How many distinct undocumented endpoints are listed apart; more are counted under one label (ids in paths are endless).
    static let endpointLimit = 100
    /// The label that counts undocumented endpoints beyond the limit.
    static let otherEndpoints = "(other undocumented endpoints)"

    /// Where the observations come from: `real` (a proxy's target) or `mock` (`serve`).
    public let source: String
    private let documented: [(answer: Answer, examples: [String])]
    /// Every documented answer, for an exact match per exchange without scanning the list.
    private let documentedSet: Set<Answer>
    /// The first documented answer per contract and status: what an answer without an error code counts as.
    private let firstByStatus: [String: Answer]
    private let fromMock: Set<Answer>
    private let state = Locked(State())

    /// Coverage of every answer in `contracts`; `mockObserved` are answers a mock run saw (listed apart when never seen here).
    public init(contracts: ContractSet, source: String, mockObserved: Set<Answer> = []) {
        self.source = source
        self.documented = contracts.contracts.flatMap { contract in
            contract.responses.map { (Answer(contract: contract.id, status: $0.status, code: $0.code), $0.examples.map(\.name)) }
        }
        self.documentedSet = Set(documented.map(\.answer))
        var first: [String: Answer] = [:]
        for (answer, _) in documented where first["\(answer.contract) \(answer.status)"] == nil {
            first["\(answer.contract) \(answer.status)"] = answer
        }
        self.firstByStatus = first
        self.fromMock = mockObserved
    }

    /// Counts the answer of a journaled exchange (entries without a contract or a status count nothing), and an exchange
    /// the validator reported as undocumented traffic under its endpoint.
    ///
    /// Undocumented endpoints are read from the entry's own violations, the ones the violation log counts, so
    /// `undocumented` here always adds up to `totals.undocumented` there.
    public func observe(_ entry: JournalEntry) {
        if entry.violations.contains(where: { $0.isUndocumented && $0.isViolation }) {
            let endpoint = "\(entry.method) \(entry.path)"
            state.withLock { s in
                let label = s.undocumentedEndpoints[endpoint] != nil || s.undocumentedEndpoints.count < Self.endpointLimit ? endpoint : Self.otherEndpoints
                s.undocumentedEndpoints[label, default: 0] += 1
            }
            return
        }
        guard let contract = entry.contract, let status = entry.status, entry.fault == nil || entry.fault == "delay" else { return }
        let exact = Answer(contract: contract, status: status, code: entry.errorCode)
        let known = documentedSet.contains(exact) ? exact : (entry.errorCode == nil ? firstByStatus["\(contract) \(status)"] : nil)
        state.withLock { s in
            if let known { s.counts[known, default: 0] += 1 } else { s.undocumentedAnswers[exact, default: 0] += 1 }
        }
    }

    /// The contract ids, in the contracts' order.
    public var contractIDs: [String] {
        var seen: [String] = []
        for item in documented where seen.last != item.answer.contract { seen.append(item.answer.contract) }
        return seen
    }

    /// The documented answers observed at least once.
    public var observed: Set<Answer> {
        Set(state.withLock { $0.counts.keys })
    }

    /// The documented answers never observed.
    public var missing: [Answer] {
        let seen = observed
        return documented.map(\.answer).filter { !seen.contains($0) }
    }

    /// Answers the mock showed that this run never saw from the real server (empty when no mock coverage was given).
    public var onlyFromMock: [Answer] {
        let seen = observed
        return documented.map(\.answer).filter { fromMock.contains($0) && !seen.contains($0) }
    }

    /// `{"source", "documented", "observed", "answers": [...], "missing": [...], "onlyFromMock": [...], "undocumented": [...],
    /// "undocumentedAnswers": [...]}`: `undocumented` lists endpoints no contract knows (adding up to the violation log's
    /// `totals.undocumented`), `undocumentedAnswers` the answers of documented endpoints that their contract does not list.
    public func json() -> JSONValue {
        let (counts, undocumentedAnswers, endpoints) = state.withLock { ($0.counts, $0.undocumentedAnswers, $0.undocumentedEndpoints) }
        let answers: [JSONValue] = documented.map { item in
            var object: JSONObject = ["contract": .string(item.answer.contract), "status": .number(Double(item.answer.status))]
            object["code"] = item.answer.code.map(JSONValue.string) ?? .null
            object["label"] = .string(item.answer.label)
            object["examples"] = .array(item.examples.map(JSONValue.string))
            object["observed"] = .number(Double(counts[item.answer] ?? 0))
            if !fromMock.isEmpty { object["observedFromMock"] = .bool(fromMock.contains(item.answer)) }
            return .object(object)
        }
        let extra: [JSONValue] = undocumentedAnswers.sorted { $0.key.label < $1.key.label }.map {
            .object(["label": .string($0.key.label), "observed": .number(Double($0.value))])
        }
        let unknownEndpoints: [JSONValue] = endpoints.sorted { $0.key < $1.key }.map {
            .object(["label": .string($0.key), "observed": .number(Double($0.value))])
        }
        return .object([
            "source": .string(source),
            "documented": .number(Double(documented.count)),
            "observed": .number(Double(counts.count)),
            "answers": .array(answers),
            "missing": .array(missing.map { .string($0.label) }),
            "onlyFromMock": .array(onlyFromMock.map { .string($0.label) }),
            "undocumented": .array(unknownEndpoints),
            "undocumentedAnswers": .array(extra),
        ])
    }

    /// The answers a coverage file (this type's `json()`) says were observed.
    public static func observedAnswers(in value: JSONValue) -> Set<Answer> {
        Set((value["answers"]?.arrayValue ?? []).compactMap { item -> Answer? in
            guard let contract = item["contract"]?.stringValue, let status = item["status"]?.intValue,
                  (item["observed"]?.intValue ?? 0) > 0 else { return nil }
            return Answer(contract: contract, status: status, code: item["code"]?.stringValue)
        })
    }

    /// Human lines: observed/documented per contract, then the missing answers and those seen only from the mock.
    public func summaryLines() -> [String] {
        let seen = observed
        var lines = ["Coverage (\(source)): \(seen.count) of \(documented.count) documented answers observed"]
        let missing = self.missing
        if !missing.isEmpty { lines.append("  never observed: " + missing.map(\.label).joined(separator: ", ")) }
        let mockOnly = onlyFromMock
        if !mockOnly.isEmpty { lines.append("  observed only from the mock: " + mockOnly.map(\.label).joined(separator: ", ")) }
        let endpoints = state.withLock { $0.undocumentedEndpoints }.sorted { $0.key < $1.key }
        if !endpoints.isEmpty {
            lines.append("  undocumented endpoints: " + endpoints.map { "\($0.key) (\($0.value))" }.joined(separator: ", "))
        }
        return lines
    }
}
