import Foundation

/// The rules of a request's query parameters, compiled once: each parameter's value rules in file order, then every
/// `x-requires` in file order; the first failure is answered.
public struct QueryRules: Sendable {
    /// One query parameter (a class: the per-request loop retains it instead of copying every field).
    public final class Parameter: Sendable {
        /// The parameter name.
        public let name: String
        /// `x-parse`: how the text becomes a value; nil keeps the text.
        let parse: QueryParse?
        /// The answer when `x-parse` fails (NaN).
        let parseAnswer: RuleAnswer?
        /// `default`: the value when the parameter is absent.
        public let defaultValue: JSONValue?
        /// `x-filter-input`: which input of the list's filter this parameter feeds (e.g. `latitude`).
        public let filterInput: String?
        /// The value checks in order (`x-parse` first when given).
        let checks: [ValueCheck]
        /// `x-requires`: another parameter that must be present with this one, and the answer when it is not.
        let requires: (name: String, answer: RuleAnswer?)?
        let location: String

        init(name: String, parse: QueryParse?, parseAnswer: RuleAnswer?, defaultValue: JSONValue?, filterInput: String?, checks: [ValueCheck],
             requires: (name: String, answer: RuleAnswer?)?, location: String) {
            self.name = name
            self.parse = parse
            self.parseAnswer = parseAnswer
            self.defaultValue = defaultValue
            self.filterInput = filterInput
            self.checks = checks
            self.requires = requires
            self.location = location
        }
    }

    /// The parameters in the contract's order.
    public let parameters: [Parameter]
    /// The answer where the contract states none: its first documented 400.
    let fallback: RuleAnswer

    /// The parameters' values (defaults filled in) by name, or the first rule the query breaks.
    ///
    /// `first(name)` gives a parameter's first value as sent (Express reads a repeated key's first value as text).
    public func evaluate(_ first: (String) -> String?, context: RuleContext) -> Result<[String: JSONValue], RuleRefusal> {
        var values: [String: JSONValue] = [:]
        var present = [Bool](repeating: false, count: parameters.count)
        for (index, parameter) in parameters.enumerated() {
            guard let text = first(parameter.name) else {
                if let value = parameter.defaultValue { values[parameter.name] = value }
                continue
            }
            let value: JSONValue
            switch parameter.parse {
            case .javaScriptParseFloat?:
                // An empty value counts as absent; NaN fails the `x-parse` rule.
                if text.isEmpty {
                    if let value = parameter.defaultValue { values[parameter.name] = value }
                    continue
                }
                guard let number = JavaScriptNumber.parseFloat(text) else {
                    return .failure(refusal(parameter, "x-parse", parameter.parseAnswer))
                }
                value = .number(number)
            case nil:
                value = .string(text)
            }
            for check in parameter.checks {
                if !check.passes(value, context: context) { return .failure(refusal(parameter, check.keyword, check.answer)) }
            }
            values[parameter.name] = value
            present[index] = true
        }
        for (index, parameter) in parameters.enumerated() {
            guard let requires = parameter.requires, present[index],
                let other = parameters.firstIndex(where: { $0.name == requires.name }), !present[other] else { continue }
            return .failure(refusal(parameter, "x-requires", requires.answer))
        }
        return .success(values)
    }

    /// The first value of every key of a query string (without `?`), decoded like Express (`+` is a space).
    public static func firstValues(in query: String?) -> [String: String] {
        var values: [String: String] = [:]
        for pair in (query ?? "").split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let key = decode(parts[0])
            if values[key] == nil { values[key] = parts.count > 1 ? decode(parts[1]) : "" }
        }
        return values
    }

    private static func decode(_ s: Substring) -> String {
        // Most names and values need no decoding; Foundation's decoding costs a bridge per call.
        guard s.utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else { return String(s) }
        let spaced = s.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }

    /// The parameter feeding the filter input `input` (`x-filter-input`).
    public func parameter(feeding input: String) -> Parameter? {
        parameters.first { $0.filterInput == input }
    }

    private func refusal(_ parameter: Parameter, _ keyword: String, _ answer: RuleAnswer?) -> RuleRefusal {
        if let answer { return answer.refusal(field: parameter.name) }
        return RuleAnswer.unstated(keyword: keyword, fallback: fallback).refusal(field: parameter.name,
            assumption: "\(parameter.location): no x-errors for \(keyword); answered the contract's first 400 code, naming the rule")
    }
}

/// How a query parameter's text is read (`x-parse`).
enum QueryParse: String, Sendable {
    /// JavaScript's `parseFloat` (`12abc` is 12, `abc` NaN).
    case javaScriptParseFloat = "javascript-parseFloat"
}
