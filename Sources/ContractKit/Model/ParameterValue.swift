import Foundation

extension ParameterSpec {
    /// The JSON value a raw path, query or header string stands for under this parameter's schema:
    /// a number when the schema's `type` admits numbers and the text is one, a boolean likewise, else the string.
    public func typedValue(_ text: String) -> JSONValue {
        let types = schema["type"].map { $0.arrayValue?.compactMap(\.stringValue) ?? [$0.stringValue].compactMap { $0 } } ?? []
        if types.contains("number") || types.contains("integer"),
            let parsed = try? JSONValue(parsing: text), case .number = parsed
        {
            return parsed
        }
        if types.contains("boolean"), text == "true" || text == "false" { return .bool(text == "true") }
        return .string(text)
    }
}

extension ContractSet {
    /// Validates a raw path, query or header value against a parameter's schema; [] means valid.
    public func validate(parameterValue text: String, against parameter: ParameterSpec) -> [SchemaViolation] {
        validate(parameter.typedValue(text), against: parameter.schema).map {
            SchemaViolation(pointer: $0.pointer, keyword: $0.keyword,
                            message: $0.message.replacingOccurrences(of: "the value", with: parameter.name))
        }
    }
}
