import ContractKit
import ContractModel
import Foundation

/// Writes each distinct exchange (per contract, status and error code) as a named example in the contract format, with
/// the request that produced it, so `spotcheck lint` checks recordings and `spotcheck merge-recordings` adds them to contracts.
///
/// A recording folder mirrors a contracts folder: one file per contract (named like the contract's file) holding the
/// contract with only the answers recorded, each with one example, and a copy of `schemas/` so every `$ref` resolves.
/// Secrets never reach the disk: Authorization and admin-token values and the secret fields the contracts declare (and
/// any `password`) are redacted.
public final class ExchangeRecorder: Sendable {
    /// The value that replaces a redacted header's credentials.
    public static let redacted = "<redacted>"
    /// The value written in place of a secret field's (six digits, so an example of a `digits-6` secret stays valid).
    public static let redactedPassword = "000000"
    /// The example key that lists the violations a recorded exchange showed.
    public static let violationsKey = "x-spotcheck-violations"

    private struct Key: Hashable { let contract: String; let status: Int; let code: String? }

    private struct State {
        var seen: Set<Key> = []
        var responses: [String: [JSONValue]] = [:]
        var errors: [String] = []
    }

    /// The folder recordings go to.
    public let directory: URL
    private let contracts: ContractSet
    /// The body fields redacted: the contracts' declared secrets, and `password`.
    private let secrets: SecretNames
    private let state = Locked(State())

    /// Prepares `directory` (created if needed, with a copy of the contracts' `schemas/`); throws when it cannot be written.
    public init(directory: URL, contracts: ContractSet) throws {
        self.directory = directory
        self.contracts = contracts
        var secrets = SecretNames(contracts: contracts)
        secrets.bodyFields.insert("password")
        self.secrets = secrets
        let files = FileManager.default
        try files.createDirectory(at: directory, withIntermediateDirectories: true)
        let schemas = contracts.directory.appendingPathComponent("schemas")
        let target = directory.appendingPathComponent("schemas")
        if files.fileExists(atPath: schemas.path), !files.fileExists(atPath: target.path) {
            try files.copyItem(at: schemas, to: target)
        }
    }

    /// Problems writing recordings so far (reported when the run ends).
    public var errors: [String] { state.withLock { $0.errors } }

    /// Records the exchange if it is the first with its contract, status and error code; faults and proxy errors are skipped.
    public func record(_ entry: JournalEntry) {
        guard let contractID = entry.contract, let status = entry.status, entry.fault == nil || entry.fault == "delay",
              entry.errorCode != "PROXY_ERROR", let contract = contracts.contract(id: contractID) else { return }
        let key = Key(contract: contractID, status: status, code: entry.errorCode)
        guard state.withLock({ $0.seen.insert(key).inserted }) else { return }
        let response = responseObject(contract, entry)
        let document = state.withLock { s -> JSONValue in
            s.responses[contractID, default: []].append(response)
            return Self.replacing(Self.withoutModel(contract.source), key: "responses", with: .array(s.responses[contractID] ?? []))
        }
        do {
            try document.data(pretty: true).write(to: directory.appendingPathComponent(contract.file.lastPathComponent), options: .atomic)
        } catch {
            state.withLock { $0.errors.append("could not write \(contract.file.lastPathComponent): \(FileErrorText.reason(error))") }
        }
    }

    /// The documented answer (or a stub for an undocumented one) carrying the recorded example alone.
    private func responseObject(_ contract: Contract, _ entry: JournalEntry) -> JSONValue {
        let status = entry.status ?? 0
        let documented = (contract.source["responses"]?.arrayValue ?? []).first {
            $0["status"]?.intValue == status && $0["code"]?.stringValue == entry.errorCode
        } ?? (contract.source["responses"]?.arrayValue ?? []).first { $0["status"]?.intValue == status && entry.errorCode == nil }
        let spec = contract.response(status: status, code: entry.errorCode)
        let example = exampleObject(contract, spec, entry)
        guard let documented else {
            var stub: JSONObject = ["status": .number(Double(status))]
            if let code = entry.errorCode { stub["code"] = .string(code) }
            stub["when"] = .string("Recorded; the contract does not document this answer.")
            stub["examples"] = .array([example])
            return .object(stub)
        }
        return Self.replacing(documented, key: "examples", with: .array([example]))
    }

    private func exampleObject(_ contract: Contract, _ spec: ResponseSpec?, _ entry: JournalEntry) -> JSONValue {
        var example: JSONObject = ["name": .string("recorded \(entry.status ?? 0)" + (entry.errorCode.map { " \($0)" } ?? ""))]
        var summary = "Recorded from \(entry.method) \(entry.path) at \(JournalEntry.formatTime(entry.time))."
        example["request"] = requestObject(contract, entry)
        var headers = JSONObject()
        for header in spec?.headers ?? [] {
            if let value = entry.responseHeaders.first(where: { $0.hasName(header.name) })?.value {
                headers[header.name] = .string(value)
            }
        }
        if !headers.isEmpty { example["headers"] = .object(headers) }
        if let body = entry.responseBody {
            if !body.truncated, let json = try? JSONValue(parsing: body.bytes) {
                example["body"] = secrets.redactingFields(json, replacement: Self.redactedPassword)
            } else {
                summary += " Body of \(body.size) bytes not recorded (not JSON or over \(CapturedBody.defaultLimit) bytes)."
            }
        }
        example["summary"] = .string(summary)
        let violations = entry.violations.filter(\.isViolation)
        if !violations.isEmpty {
            example[Self.violationsKey] = .array(violations.map { v in
                .object(["side": .string(v.side.rawValue), "pointer": .string(v.pointer), "expected": .string(v.expected), "got": .string(v.got)])
            })
        }
        return .object(example)
    }

    private func requestObject(_ contract: Contract, _ entry: JournalEntry) -> JSONValue {
        var request = JSONObject()
        if let parameters = contracts.match(method: entry.method, path: entry.path)?.parameters, !parameters.isEmpty {
            request["pathParameters"] = .object(JSONObject(parameters.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }))
        }
        let query = Exchange(entry).queryItems
        if !query.isEmpty { request["query"] = .object(JSONObject(query.map { ($0.name, .string($0.value)) })) }
        var headers = JSONObject()
        let documented = Set(contract.request.headers.map { $0.name.lowercased() } + ["content-type", (contract.request.auth?.header ?? "authorization").lowercased()])
        for field in entry.requestHeaders where documented.contains(field.name.lowercased()) || Self.isSecretHeader(field.name) {
            headers[field.name] = .string(Self.isSecretHeader(field.name) ? Self.redact(field.value) : field.value)
        }
        if !headers.isEmpty { request["headers"] = .object(headers) }
        if let body = entry.requestBody, !body.truncated {
            if let json = try? JSONValue(parsing: body.bytes) {
                request["body"] = secrets.redactingFields(json, replacement: Self.redactedPassword)
            } else if let text = body.text {
                request["rawBody"] = .string(text)
            }
        }
        return .object(request)
    }

    /// Headers whose values are credentials.
    static func isSecretHeader(_ name: String) -> Bool {
        ["authorization", "proxy-authorization", "x-admin-token", "x-spotcheck-admin-token", "cookie"].contains(name.lowercased())
    }

    /// Keeps the scheme (`Basic`, `Bearer`) so the example still says how the client authenticated.
    static func redact(_ value: String) -> String {
        let parts = value.split(separator: " ", maxSplits: 1)
        return parts.count == 2 ? "\(parts[0]) \(redacted)" : redacted
    }


    /// `value` with `key` set to `replacement`, other members kept in order.
    /// The contract without what only the model reads (`x-state`, the auth checks' answers): a recording keeps only the
    /// answers it saw, and those declarations name answers it may not have seen.
    static func withoutModel(_ source: JSONValue) -> JSONValue {
        guard var object = source.objectValue else { return source }
        object["x-state"] = nil
        if var request = object["request"]?.objectValue, var auth = request["auth"]?.objectValue {
            for key in ["x-errors", "x-token", "x-empty-is-missing"] { auth[key] = nil }
            request["auth"] = .object(auth)
            object["request"] = .object(request)
        }
        return .object(object)
    }

    static func replacing(_ value: JSONValue, key: String, with replacement: JSONValue) -> JSONValue {
        guard var object = value.objectValue else { return value }
        object[key] = replacement
        return .object(object)
    }
}
