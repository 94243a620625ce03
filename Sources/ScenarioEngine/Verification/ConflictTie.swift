import ContractKit
import ContractModel
import Foundation

/// What a documented conflict (409) on a create is tied to: the request fields the contracts say must be unique.
///
/// A folder states them (`x-state.unique`). A team's OpenAPI document has no such keyword, but says it in its own words:
/// the conflict example's `error.field`, or the answer's description or message naming a property of the request
/// ("duplicate microchip number" names `microchipNumber`, "Email already exists" names `email`). A conflict is expected
/// only of a request that repeats one of those fields; a create sent again without it is a new record, and a server that
/// answers it 201 is right.
struct ConflictTie {
    /// The tied request properties, in the request schema's order; empty when the contracts name none.
    let fields: [String]
    /// The first request example whose body carries a non-empty value of a tied field: the one to send twice.
    let repeatedExample: ContractExample?

    init(contract: Contract, response: ResponseSpec, example: ContractExample?, contracts: ContractSet) {
        let fields = Self.fields(contract: contract, response: response, example: example, contracts: contracts)
        self.fields = fields
        repeatedExample = contract.request.examples.first { request in
            fields.contains { field in
                guard let value = request.body?[field], value != .null else { return false }
                return value.stringValue.map { !$0.trimmingCharacters(in: .whitespaces).isEmpty } ?? true
            }
        }
    }

    static func fields(contract: Contract, response: ResponseSpec, example: ContractExample?, contracts: ContractSet) -> [String] {
        if let unique = contracts.state.declaration(for: contract.id)?.unique, !unique.isEmpty { return unique.map(\.field) }
        let properties = requestProperties(contract, contracts: contracts)
        let error = example?.body?["error"]
        let stated = [error?["field"]?.stringValue, example?.body?["field"]?.stringValue].compactMap { $0 }
        if let field = stated.first(where: properties.contains) { return [field] }
        let texts = [response.when, error?["message"]?.stringValue, error?.stringValue, example?.body?["message"]?.stringValue]
        let text = texts.compactMap { $0 }.joined(separator: " ").lowercased()
        return properties.filter { Self.names($0, in: text) }
    }

    /// Whether `text` (lower case) names `property` as words: `microchipNumber` as "microchip number", "microchipnumber"
    /// or "microchip_number"; whole words only, so `id` is not found in "valid".
    static func names(_ property: String, in text: String) -> Bool {
        let words = Self.words(property)
        guard !words.isEmpty else { return false }
        let spellings = [words.joined(separator: " "), words.joined(), words.joined(separator: "_"), words.joined(separator: "-")]
        let letters = CharacterSet.alphanumerics
        for spelling in Set(spellings) {
            var searchStart = text.startIndex
            while let found = text.range(of: spelling, range: searchStart..<text.endIndex) {
                let before = found.lowerBound == text.startIndex ? nil : text[text.index(before: found.lowerBound)]
                let after = found.upperBound == text.endIndex ? nil : text[found.upperBound]
                let bounded = { (c: Character?) in c.map { !$0.unicodeScalars.allSatisfy(letters.contains) } ?? true }
                if bounded(before) && bounded(after) { return true }
                searchStart = found.upperBound
            }
        }
        return false
    }

    /// `microchipNumber`, `microchip_number` → `["microchip", "number"]`.
    static func words(_ name: String) -> [String] {
        var words: [String] = []
        var current = ""
        for character in name {
            if character == "_" || character == "-" || character == " " {
                if !current.isEmpty { words.append(current) }
                current = ""
            } else if character.isUppercase, !current.isEmpty, current.last?.isUppercase == false {
                words.append(current)
                current = String(character)
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { words.append(current) }
        return words.map { $0.lowercased() }
    }

    /// The property names of the request body's schema (its `$ref` followed), in schema order.
    static func requestProperties(_ contract: Contract, contracts: ContractSet) -> [String] {
        guard let body = contract.request.body else { return [] }
        return contracts.followingReference(body)["properties"]?.objectValue?.keys.map { $0 } ?? []
    }
}
