import ContractKit
import ContractModel

/// Decides, for the differences of one generated request, whether the contracts state what the model answered.
///
/// The rule is conservative: a difference is a failure unless one of two things holds.
/// 1. The model's answer (or the read-back answer a difference is in) records assumptions (`MockResponse.assumptions`,
///    sent as `x-spotcheck-assumption`): the rule that decided it is not stated, so every difference in that answer's
///    status and body is a note naming them. A required header the server stops sending, or no answer at all, stays a
///    failure: no assumption about the body excuses those.
/// 2. Every difference is a body member the contract's response schema for that status does not declare, inside an
///    object that does not close itself (`additionalProperties: false` or a schema): the contracts leave that member free.
///    A member whose schema cannot be found, a status with no documented body, a missing declared member, and anything
///    under a closed object are stated, so they fail.
/// Status, error code, field and message differences on an answer without assumptions are always failures.
struct StatedAspects: Sendable {
    let contracts: ContractSet

    /// The verdict on `differences`, seen on a request to `contractID` (nil: a route beyond the contracts) whose model
    /// answer had `status` and `assumptions`; `readContractID` and `readAssumptions` are the read back's.
    func verdict(_ differences: [AnswerDifference], contractID: String?, status: Int, assumptions: [String],
                 readContractID: String?, readAssumptions: [String]) -> DifferenceVerdict {
        guard !differences.isEmpty else { return .failure }
        var notes: [String] = []
        for difference in differences {
            if let unstated = difference.unstated {
                notes.append(unstated)
                continue
            }
            let readBack = difference.aspect.hasPrefix(AnswerDifference.readBackPrefix)
            let recorded = readBack ? assumptions + readAssumptions : assumptions
            if difference.excusable, !recorded.isEmpty {
                notes += recorded
                continue
            }
            // A read that followed the request (`then`) is judged by its own contract and status.
            let contract = (difference.readContractID ?? (readBack ? readContractID : contractID)).flatMap { contracts.contract(id: $0) }
            let answered = difference.readStatus ?? (readBack ? 200 : status)
            guard let pointer = difference.bodyPointer, let contract, let free = undeclared(pointer, in: contract, status: answered)
            else { return .failure }
            notes.append(free)
        }
        var seen = Set<String>()
        return .note(assumptions: notes.filter { seen.insert($0).inserted })
    }

    /// A sentence naming the member when `pointer` is a body member the response schema leaves free; nil when stated.
    func undeclared(_ pointer: String, in contract: Contract, status: Int) -> String? {
        guard let response = contract.response(status: status), var schema = response.body else { return nil }
        let tokens = pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map {
            $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        }
        guard !tokens.isEmpty else { return nil }
        for token in tokens {
            guard let resolved = resolve(schema) else { return nil }
            if let items = resolved["items"], Int(token) != nil {
                schema = items
                continue
            }
            if let member = declared(token, in: resolved) {
                schema = member
                continue
            }
            // Only an undeclared member of an object that leaves members open is free; anything else is stated.
            guard isOpen(resolved) else { return nil }
            return "\(contract.id) \(status): the response schema does not declare \(pointer) (its object leaves other members free)"
        }
        return nil
    }

    /// The member schema `name` has in `schema`, directly or in one of its `allOf`/`anyOf`/`oneOf` branches.
    private func declared(_ name: String, in schema: JSONValue) -> JSONValue? {
        if let member = schema["properties"]?[name] { return member }
        for keyword in ["allOf", "anyOf", "oneOf"] {
            for branch in schema[keyword]?.arrayValue ?? [] {
                if let resolved = resolve(branch), let member = declared(name, in: resolved) { return member }
            }
        }
        return nil
    }

    /// Whether an object schema lets members it does not declare through: no `additionalProperties` anywhere in it, and
    /// no `unevaluatedProperties` either (a schema there states what such members must be, so it is stated too).
    private func isOpen(_ schema: JSONValue) -> Bool {
        guard schema["additionalProperties"] == nil, schema["unevaluatedProperties"] == nil, schema["patternProperties"] == nil else { return false }
        for keyword in ["allOf", "anyOf", "oneOf"] {
            for branch in schema[keyword]?.arrayValue ?? [] where !(resolve(branch).map(isOpen) ?? false) { return false }
        }
        return true
    }

    /// `schema` with its `$ref` followed (a contracts-relative file and pointer, as the loader writes them).
    private func resolve(_ schema: JSONValue, depth: Int = 0) -> JSONValue? {
        guard depth < 16 else { return nil }
        guard let ref = schema["$ref"]?.stringValue else { return schema.objectValue == nil ? nil : schema }
        guard !SchemaReference.split(ref).0.isEmpty, let target = contracts.referencedSchema(ref) else { return nil }
        return resolve(target, depth: depth + 1)
    }
}
