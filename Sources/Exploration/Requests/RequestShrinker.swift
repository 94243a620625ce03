import ContractKit
import ContractModel
import Foundation

/// Reduces a differing request to the fewest fields and simplest values that still differ the same way (same
/// signature): first drop each JSON key or query parameter, then try simpler values (`""`, the base body's value, 0).
/// Each try is a real request through `probe`, so a shrunk request is one that was sent and seen to differ.
struct RequestShrinker: Sendable {
    /// The most requests one shrink may send.
    var budget = 40

    /// The smallest request found that `probe` still maps to `signature`, and how many tries it took.
    func shrink(_ request: GeneratedRequest, signature: String,
                probe: (GeneratedRequest) async -> String?) async -> (request: GeneratedRequest, tries: Int) {
        let shrinker = Shrinker<GeneratedRequest>(budget: budget) { candidates($0) }
        let (smallest, tries) = await shrinker.shrink(request) { await probe($0) == signature }
        return (smallest, tries)
    }

    /// One-step simpler versions of `request`, removals first.
    func candidates(_ request: GeneratedRequest) -> [GeneratedRequest] {
        var found: [GeneratedRequest] = []
        if case .json(.object(let body)) = request.body {
            for key in body.keys {
                var smaller = body
                smaller[key] = nil
                found.append(with(request, body: smaller))
            }
            // Values the base body gives are already valid and simple; only the values a case changed are simplified.
            for (key, value) in body where value != request.baseBody?[key] {
                for simpler in Self.simpler(than: value, base: request.baseBody?[key]) {
                    var changed = body
                    changed[key] = simpler
                    found.append(with(request, body: changed))
                }
            }
        }
        for index in request.query.indices {
            var smaller = request
            smaller.query.remove(at: index)
            found.append(smaller)
        }
        return found
    }

    private func with(_ request: GeneratedRequest, body: JSONObject) -> GeneratedRequest {
        var request = request
        request.body = .json(.object(body))
        return request
    }

    /// Simpler values than `value`, simplest first; never `value` itself.
    static func simpler(than value: JSONValue, base: JSONValue?) -> [JSONValue] {
        var options: [JSONValue]
        switch value {
        case .string(let text):
            options = [""]
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if trimmed != text { options.append(.string(trimmed)) }
        case .number: options = [0, 1]
        default: options = [""]
        }
        if let base { options.append(base) }
        return options.filter { $0 != value && complexity($0) < complexity(value) || $0 == base && $0 != value && complexity($0) <= complexity(value) }
    }

    private static func complexity(_ value: JSONValue) -> Int {
        switch value {
        case .string(let text): return text.count + 1
        case .number(let number): return number == 0 ? 1 : number == 1 ? 2 : 3
        case .null: return 0
        default: return String(decoding: value.data(), as: UTF8.self).count
        }
    }
}
