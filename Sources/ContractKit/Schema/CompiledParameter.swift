import Foundation

/// A path, query or header parameter with its schema compiled, checked per request without reading the schema again.
public struct CompiledParameter: Sendable {
    /// The parameter as the contract declares it.
    public let spec: ParameterSpec
    /// The parameter's schema, compiled.
    public let schema: CompiledSchema
    private let admitsNumber: Bool
    private let admitsBoolean: Bool

    /// Compiles `spec`'s schema with `validator`'s documents.
    public init(_ spec: ParameterSpec, validator: SchemaValidator) {
        self.spec = spec
        schema = CompiledSchema(spec.schema, validator: validator)
        let types = spec.schema["type"].map { JSONTypeSet(typeKeyword: $0) } ?? []
        admitsNumber = !types.isDisjoint(with: [.number, .integer])
        admitsBoolean = types.contains(.boolean)
    }

    /// What `ParameterSpec.typedValue` gives for `text`, from the types read once.
    public func typedValue(_ text: String) -> JSONValue {
        if admitsNumber, let parsed = try? JSONValue(parsing: text), case .number = parsed { return parsed }
        if admitsBoolean, text == "true" || text == "false" { return .bool(text == "true") }
        return .string(text)
    }

    /// What `ContractSet.validate(parameterValue:against:)` reports for `text`; [] means valid.
    public func violations(_ text: String) -> [SchemaViolation] {
        let found = schema.validate(typedValue(text))
        if found.isEmpty { return found }
        return found.map {
            SchemaViolation(pointer: $0.pointer, keyword: $0.keyword,
                            message: $0.message.replacingOccurrences(of: "the value", with: spec.name))
        }
    }
}
