import ContractKit
import ContractModel
import Foundation

/// `verify`'s closing section: every failure and note of the run, grouped by the operation (contract) it is about, each
/// operation and example cited at its place in the contracts (`file:line`; the document's line for an OpenAPI document),
/// so a backend team reads where its document and its server disagree, operation by operation.
public struct DriftReport: Sendable {
    /// One operation's findings.
    public struct Operation: Sendable, Equatable {
        /// The contract id (the `operationId`, or method and path).
        public let id: String
        /// `METHOD /path` as the contracts state it.
        public let route: String
        /// Where the operation is stated.
        public let citation: String
        /// `✗ …` for a failure, `≈ …` for a note, each ending with its own citation when it has one.
        public let findings: [String]
        /// How many of `findings` are failures.
        public let failures: Int
    }

    /// Operations with at least one finding, in contract order; findings about no one operation come last, under `(all)`.
    public let operations: [Operation]
    /// The server defects (results tagged `server-defect`: a 5xx to a request a client could send by mistake), one line
    /// each, apart from the drift: they are failures whatever the document states.
    public let defects: [String]

    /// One line of an operation: a finding of its own, or one drift with every place that showed it.
    struct Entry {
        var text: String
        let failed: Bool
        let drift: String?
        var places: [String]

        var line: String { places.isEmpty ? text : text + " — seen in " + places.joined(separator: "; ") }
    }

    /// Groups `results` (failed and note results only) by the contract id their tags name. A mismatch that names its drift
    /// (`Mismatch.drift`) is said once per operation, with every example and exploration that showed it.
    public init(results: [ScenarioResult], contracts: ContractSet) {
        var citations = ContractCitations(contracts: contracts)
        var byID: [String: [Entry]] = [:]
        var orphans: [Entry] = []
        let ids = Set(contracts.contracts.map(\.id))
        var defects: [String] = []
        for result in results where result.status == .failed || result.status == .note {
            if result.tags.contains("server-defect") {
                defects.append("✗ " + result.name + (result.failureMessage.map { " — " + $0.replacingOccurrences(of: "\n", with: "; ") } ?? ""))
                continue
            }
            let failed = result.status == .failed
            let owners = result.tags.filter(ids.contains)
            var citation: String?
            if let contract = contracts.contracts.first(where: { $0.id == owners.first }), let example = result.name.components(separatedBy: " › ").last,
               result.tags.contains("examples"), let pointer = ExamplePointer.find(example, in: contract.source) {
                citation = citations.cite(contract, pointer: pointer)
            }
            var entries = owners.first.map { byID[$0] ?? [] } ?? orphans
            let mismatches = failed ? (result.failure?.mismatches ?? []) : []
            let keyed = mismatches.filter { $0.drift != nil }
            if keyed.isEmpty {
                var line = (failed ? "✗ " : "≈ note: ") + result.name
                if let text = result.failureMessage ?? result.notes.first { line += " — " + text.replacingOccurrences(of: "\n", with: "; ") }
                if let citation { line += " (\(citation))" }
                entries.append(Entry(text: line, failed: failed, drift: nil, places: []))
            } else {
                let place = result.tags.contains("exploration")
                    ? "exploration (\(result.notes.first ?? "generated requests"))"
                    : result.name + (citation.map { " (\($0))" } ?? "")
                for mismatch in keyed {
                    if let i = entries.firstIndex(where: { $0.drift == mismatch.drift }) {
                        if !entries[i].places.contains(place) { entries[i].places.append(place) }
                    } else {
                        let text = "✗ " + mismatch.description.replacingOccurrences(of: "\n", with: "; ")
                        entries.append(Entry(text: text, failed: true, drift: mismatch.drift, places: [place]))
                    }
                }
                let rest = mismatches.filter { $0.drift == nil }
                if !rest.isEmpty {
                    let text = "✗ \(result.name) — " + rest.map(\.description).joined(separator: "; ") + (citation.map { " (\($0))" } ?? "")
                    entries.append(Entry(text: text, failed: true, drift: nil, places: []))
                }
            }
            // A finding about several operations (a base path served nowhere) is listed once, under the first.
            if let owner = owners.first { byID[owner] = entries } else { orphans = entries }
        }
        var operations: [Operation] = []
        for contract in contracts.contracts {
            guard let found = byID[contract.id] else { continue }
            operations.append(Operation(id: contract.id, route: "\(contract.method) \(contract.pathTemplate)",
                                        citation: citations.cite(contract, pointer: ""), findings: found.map(\.line),
                                        failures: found.filter(\.failed).count))
        }
        if !orphans.isEmpty {
            operations.append(Operation(id: "(all)", route: "", citation: "", findings: orphans.map(\.line), failures: orphans.filter(\.failed).count))
        }
        self.operations = operations
        self.defects = defects
    }

    /// The console lines: a heading, then per operation its route and place, then its findings indented.
    public var lines: [String] {
        var lines: [String] = []
        if !defects.isEmpty {
            lines.append("server defects (a 5xx to a request a client could send by mistake, whatever the document states): \(defects.count)")
            lines += defects.map { "  " + $0 }
        }
        guard !operations.isEmpty else { return lines + ["drift report: the target answered every request as the contracts state"] }
        let failures = operations.map(\.failures).reduce(0, +)
        let notes = operations.map(\.findings.count).reduce(0, +) - failures
        lines.append("drift report, by operation: \(failures) failure(s), \(notes) note(s)")
        for operation in operations {
            let place = operation.citation.isEmpty ? "" : " — \(operation.citation)"
            lines.append("  \(operation.id)\(operation.route.isEmpty ? "" : " (\(operation.route))")\(place)")
            lines += operation.findings.map { "    " + $0 }
        }
        return lines
    }
}
