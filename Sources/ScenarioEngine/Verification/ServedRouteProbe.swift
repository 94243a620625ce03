import ContractKit
import ContractModel
import Foundation
import MockBackend

/// Asks the target, before any check, whether it serves the operations the contracts name at all: a document whose base
/// path the server does not serve (a team document saying `/v1` where the server answers `/api/v1`) would otherwise fail
/// every request once, burying the one finding under hundreds.
///
/// The server's own answer to a route nobody has (a random path, once per method) is the yardstick: an operation whose
/// answer has the same status and the same body (leaves that differ between two such answers, like a request id, and the
/// request's own path are left out) is not served. Only operations without path parameters are judged: an unknown id on
/// a served route may well get the same answer as an unknown route.
public struct ServedRouteProbe: Sendable {
    /// One finding: the operations the target does not serve, and what it answered instead.
    public struct Finding: Sendable, Equatable {
        /// The path every operation starts with, when the finding is about all of them (none is served).
        public let basePath: String?
        /// The contract ids (operations) it covers.
        public let operations: [String]
        /// The contract file of the first operation, where the finding is cited.
        public let file: URL
        /// The operation's path, or the first one, as written in the contracts.
        public let path: String
        /// What the server answered, for a person.
        public let evidence: String
        /// The base path the rest of the run goes to instead, and why (`--base-path`, or a probe found the same
        /// operations served there); nil: nothing else under the unserved base path is sent.
        public var servedUnder: (path: String, why: String)?

        /// `the target does not serve …` for a person.
        public var message: String {
            if let basePath {
                let rest = servedUnder.map { "the rest runs under \($0.path.isEmpty ? "/" : $0.path) (\($0.why))" } ?? "no other request under it is sent"
                return "the target serves none of the \(operations.count) operation(s), all under \(basePath): \(evidence); \(rest)"
            }
            return "the target does not serve \(path) (\(operations.joined(separator: ", "))): \(evidence)"
        }

        public static func == (lhs: Finding, rhs: Finding) -> Bool {
            lhs.basePath == rhs.basePath && lhs.operations == rhs.operations && lhs.file == rhs.file && lhs.path == rhs.path
                && lhs.evidence == rhs.evidence && lhs.servedUnder?.path == rhs.servedUnder?.path && lhs.servedUnder?.why == rhs.servedUnder?.why
        }
    }

    /// Prefix rewrites to try when `unserved` (the literal prefix every operation shares) is not served: each leading part
    /// of it (none, then one segment, …, never the whole) replaced by each base path the documents' other servers name,
    /// then by the prefixes APIs are commonly mounted under (`/api/v1`, `/api`, `/v1`) and by none.
    public static func candidateRewrites(_ contracts: ContractSet, unserved: String) -> [(from: String, to: String)] {
        let segments = unserved.split(separator: "/").map(String.init)
        var bases: [String] = []
        for path in (contracts.openAPISource?.serverPaths ?? []) + ["/api/v1", "/api", "/v1", ""] where !bases.contains(path) { bases.append(path) }
        var found: [(from: String, to: String)] = []
        for kept in 0..<max(segments.count, 1) {
            let from = kept == 0 ? "" : "/" + segments.prefix(kept).joined(separator: "/")
            for base in bases where base != from && !(kept == 0 && base.isEmpty) {
                let rewritten = base + unserved.dropFirst(from.count)
                if rewritten != unserved, !found.contains(where: { $0.to + unserved.dropFirst($0.from.count) == rewritten }) { found.append((from, base)) }
            }
        }
        return found
    }


    /// What the probe found.
    public struct Outcome: Sendable, Equatable {
        /// At most one finding per unserved operation, or one for a base path served nowhere.
        public let findings: [Finding]
        /// Every contract id the findings cover: their checks would only repeat the finding.
        public var unserved: Set<String> { Set(findings.flatMap(\.operations)) }
        /// How many operations could be judged (those without path parameters that got an answer).
        public var judged = 0
    }

    let contracts: ContractSet
    let target: URL
    let client: ExactHTTPClient

    /// A probe of `target` for the operations of `contracts`.
    public init(contracts: ContractSet, target: URL, timeout: Duration) {
        self.contracts = contracts
        self.target = target
        self.client = ExactHTTPClient(timeout: timeout)
    }

    /// Sends each operation without parameters once, bodiless and without credentials, and a random route twice per method.
    public func probe() async -> Outcome {
        var yardsticks: [String: Yardstick] = [:]
        var unserved: [(Contract, String)] = []
        var judged = 0
        for contract in contracts.contracts where contract.path.parameterNames.isEmpty {
            if yardsticks[contract.method] == nil {
                guard let yardstick = await yardstick(method: contract.method) else { continue }
                yardsticks[contract.method] = yardstick
            }
            guard let yardstick = yardsticks[contract.method], let answer = await send(contract.method, contract.pathTemplate) else { continue }
            judged += 1
            if Self.shape(answer, path: contract.pathTemplate, ignoring: yardstick.volatile) == yardstick.shape {
                unserved.append((contract, "\(contract.method) \(contract.pathTemplate) is answered \(answer.status) like a route nobody has"))
            }
        }
        guard let first = unserved.first else { return Outcome(findings: [], judged: judged) }
        if judged == unserved.count, let base = Self.commonPrefix(contracts.contracts.map(\.path)) {
            // Every judged operation is missing and every operation sits under one prefix: one finding for the base path.
            return Outcome(findings: [Finding(basePath: base, operations: contracts.contracts.map(\.id), file: first.0.file,
                                              path: first.0.pathTemplate, evidence: first.1)], judged: judged)
        }
        return Outcome(findings: unserved.map { contract, evidence in
            Finding(basePath: nil, operations: [contract.id], file: contract.file, path: contract.pathTemplate, evidence: evidence)
        }, judged: judged)
    }

    /// The server's answer to a route nobody has, with the body leaves that differ from one such answer to the next.
    struct Yardstick {
        let shape: String
        let volatile: Set<String>
    }

    func yardstick(method: String) async -> Yardstick? {
        let paths = (0..<2).map { _ in "/spotcheck-unserved-" + UUID().uuidString.lowercased() }
        guard let a = await send(method, paths[0]), let b = await send(method, paths[1]) else { return nil }
        let (x, y) = (Self.leaves(a, path: paths[0]), Self.leaves(b, path: paths[1]))
        let volatile = Set(x.keys.filter { x[$0] != y[$0] }).union(y.keys.filter { x[$0] == nil })
        return Yardstick(shape: Self.shape(a, path: paths[0], ignoring: volatile), volatile: volatile)
    }

    func send(_ method: String, _ path: String) async -> ExactHTTPClient.Answer? {
        var components = URLComponents(url: target, resolvingAgainstBaseURL: false)
        let base = components?.path ?? ""
        components?.percentEncodedPath = (base.hasSuffix("/") ? String(base.dropLast()) : base) + path
        guard let url = components?.url else { return nil }
        return try? await client.send(method: method, url: url, headers: [:], body: Data())
    }

    /// Status and the body's leaves (JSON pointer → value) with the request's path written `{path}`; a body that is not
    /// JSON is one leaf.
    static func leaves(_ answer: ExactHTTPClient.Answer, path: String) -> [String: String] {
        func masked(_ text: String) -> String { text.replacingOccurrences(of: path, with: "{path}") }
        guard let json = try? JSONValue(parsing: answer.body) else {
            return ["": masked(String(decoding: answer.body, as: UTF8.self))]
        }
        var leaves: [String: String] = [:]
        func walk(_ value: JSONValue, _ pointer: String) {
            switch value {
            case .object(let object):
                for (key, child) in object { walk(child, JSONPointer.appending(pointer, key)) }
            case .array(let items):
                for (i, child) in items.enumerated() { walk(child, JSONPointer.appending(pointer, i)) }
            default:
                leaves[pointer] = masked(value.serialized())
            }
        }
        walk(json, "")
        return leaves
    }

    static func shape(_ answer: ExactHTTPClient.Answer, path: String, ignoring volatile: Set<String>) -> String {
        let kept = leaves(answer, path: path).filter { !volatile.contains($0.key) }.sorted { $0.key < $1.key }
        return "\(answer.status) " + kept.map { "\($0.key)=\($0.value)" }.joined(separator: "\u{1}")
    }

    /// The literal segments every path starts with (`/v1/announcements`), nil when they share none.
    static func commonPrefix(_ paths: [PathTemplate]) -> String? {
        func literals(_ path: PathTemplate) -> [String] {
            var result: [String] = []
            for segment in path.segments {
                guard case .literal(let text) = segment else { break }
                result.append(text)
            }
            return result
        }
        guard var prefix = paths.first.map(literals) else { return nil }
        for path in paths.dropFirst() {
            let other = literals(path)
            prefix = Array(zip(prefix, other).prefix { $0 == $1 }.map(\.0))
        }
        return prefix.isEmpty ? nil : "/" + prefix.joined(separator: "/")
    }
}

extension ServedRouteProbe.Finding {
    /// Where the contracts state the (first) operation's path, as `file:line`: the document's line for an OpenAPI document.
    public func citation(in contracts: ContractSet) -> String {
        var citations = ContractCitations(contracts: contracts)
        guard let contract = contracts.contracts.first(where: { $0.id == operations.first }) else { return LintPrinter.displayPath(file) }
        return citations.cite(contract, pointer: "/path")
    }

    /// The finding as a failed result of the report, tagged with its operations.
    public func result(citation: String) -> ScenarioResult {
        let name = basePath.map { "served routes › \($0)" } ?? "served routes › \(operations.joined(separator: ", "))"
        var result = ScenarioResult(name: name, file: citation, tags: ["served-routes"] + operations, status: .failed, duration: .zero)
        result.failure = ScenarioFailure(stepNumber: nil, action: nil, pointer: "/path", mismatches: [
            Mismatch("route", expected: basePath.map { "the operations under \($0) served" } ?? "\(path) served", actual: evidence),
        ])
        result.notes = [message]
        return result
    }
}
