import Foundation
import Testing
@testable import ContractKit

/// The compiled request check (issue 23) must report exactly what the interpreted validator reports: the same
/// violations, in the same order, with the same pointers, keywords and messages.
@Suite struct CompiledSchemaEquivalenceTests {
    /// Fixed so a failure repeats; printed in every failure message.
    static let seed: UInt64 = 0x5EED_0023

    /// SplitMix64: reproducible mutations from `seed`.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// Values that break one keyword or another: wrong types, bounds, patterns, formats, odd characters.
    static let replacements: [JSONValue] = [
        .null, .bool(true), .bool(false), .number(0), .number(-1), .number(1.5), .number(1e300), .number(42),
        .string(""), .string(" "), .string("CAT"), .string("cat"), .string("2026-11-23"), .string("2026-02-30"),
        .string("2026-11-23T20:41:13Z"), .string("not-a-uuid"), .string("3f1c2a9e-5b7d-4e8a-9c1f-2d3e4f5a6b7c"),
        .string("a@b.co"), .string("@b"), .string(String(repeating: "x", count: 600)), .string("é\n\u{0}"),
        .string("+48 600 100 200"), .array([]), .array([.string("a"), .number(1)]), .object(JSONObject()),
        .object(["unexpected": .string("member")]),
    ]

    /// One seeded change somewhere in `value`: a member removed, added or replaced, an item replaced, or the value replaced.
    static func mutate(_ value: JSONValue, _ rng: inout Generator, depth: Int = 0) -> JSONValue {
        let pick = Int.random(in: 0..<10, using: &rng)
        switch value {
        case .object(var object) where !object.isEmpty && depth < 6:
            let keys = object.keys
            let key = keys[Int.random(in: 0..<keys.count, using: &rng)]
            switch pick {
            case 0, 1: object[key] = nil
            case 2: object["extra\(pick)"] = replacements.randomElement(using: &rng)!
            case 3, 4: object[key] = replacements.randomElement(using: &rng)!
            case 9: return replacements.randomElement(using: &rng)!
            default: object[key] = mutate(object[key]!, &rng, depth: depth + 1)
            }
            return .object(object)
        case .array(var items) where !items.isEmpty && depth < 6:
            let i = Int.random(in: 0..<items.count, using: &rng)
            switch pick {
            case 0, 1: items.remove(at: i)
            case 2, 3: items[i] = replacements.randomElement(using: &rng)!
            case 4: items.append(items[i])
            default: items[i] = mutate(items[i], &rng, depth: depth + 1)
            }
            return .array(items)
        default:
            return replacements.randomElement(using: &rng)!
        }
    }

    /// Every schema the bundled contracts check instances against, with the examples written for it.
    static func schemasWithExamples(_ set: ContractSet) -> [(name: String, schema: JSONValue, examples: [JSONValue])] {
        var out: [(String, JSONValue, [JSONValue])] = []
        for contract in set.contracts {
            if let body = contract.request.body {
                let examples = contract.responses.flatMap(\.examples).compactMap { $0.request?.body }
                out.append(("\(contract.id) request", body, examples))
            }
            for response in contract.responses {
                guard let body = response.body else { continue }
                out.append(("\(contract.id) \(response.label)", body, response.examples.compactMap(\.body)))
            }
        }
        for (name, schema) in set.schemas.sorted(by: { $0.key < $1.key }) { out.append(("schemas/\(name)", schema, [])) }
        return out
    }

    @Test func compiledBodyChecksReportWhatTheValidatorReports() throws {
        let set = try ContractSet.load(from: ContractSet.bundledDirectory)
        var rng = Generator(state: Self.seed)
        let cases = Self.schemasWithExamples(set)
        let allExamples = cases.flatMap(\.examples)
        #expect(allExamples.count > 20, "the contracts' examples are the corpus")
        var compared = 0, invalid = 0
        for (name, schema, examples) in cases {
            let compiled = CompiledSchema(schema, validator: set.validator)
            // Its own examples, every other example (mostly the wrong shape), and seeded mutations of them.
            var instances = examples + allExamples
            for _ in 0..<150 {
                let base = (examples.isEmpty ? allExamples : examples).randomElement(using: &rng)!
                var mutated = Self.mutate(base, &rng)
                if Bool.random(using: &rng) { mutated = Self.mutate(mutated, &rng) }
                instances.append(mutated)
            }
            for instance in instances {
                let expected = set.validator.validate(instance, against: schema)
                let got = compiled.validate(instance)
                #expect(got == expected, "seed \(Self.seed), \(name): \(instance.serialized())")
                #expect(compiled.isValid(instance) == expected.isEmpty, "seed \(Self.seed), \(name)")
                compared += 1
                if !expected.isEmpty { invalid += 1 }
            }
        }
        // Both kinds must be well represented, or the comparison proves little.
        #expect(invalid > compared / 4 && invalid < compared * 9 / 10, "seed \(Self.seed): \(invalid) of \(compared) invalid")
    }

    @Test func compiledParametersReportWhatTheValidatorReports() throws {
        let set = try ContractSet.load(from: ContractSet.bundledDirectory)
        let texts = ["", "0", "1", "-1", "1.5", "100", "100000", "true", "false", "abc", "CAT", "DOG", "3f1c2a9e-5b7d-4e8a-9c1f-2d3e4f5a6b7c",
                     "2026-11-23", "Basic dXNlcjpwYXNz", "application/json", "%20", "null", "[1]"]
        var compared = 0
        for contract in set.contracts {
            let check = try #require(set.requestChecks[contract.id])
            let declared = contract.pathParameters + contract.request.query + contract.request.headers
            let compiled = check.pathParameters + check.query + check.headers
            #expect(compiled.map(\.spec.name) == declared.map(\.name))
            for (parameter, compiledParameter) in zip(declared, compiled) {
                for text in texts {
                    #expect(compiledParameter.typedValue(text) == parameter.typedValue(text))
                    #expect(compiledParameter.violations(text) == set.validate(parameterValue: text, against: parameter),
                            "\(contract.id) \(parameter.name) \(text.debugDescription)")
                    compared += 1
                }
            }
        }
        #expect(compared > 0)
    }

    /// Keywords the bundled contracts do not use yet: boolean schemas, composition, cycles, unresolved references.
    @Test func compiledChecksAgreeOnEveryKeyword() throws {
        let tree: JSONValue = try JSONValue(parsing: #"""
        {"type": "object", "properties": {"name": {"type": "string"}, "children": {"type": "array", "items": {"$ref": "tree.json"}}},
         "required": ["name"], "additionalProperties": {"type": ["integer", "null"]}}
        """#)
        let validator = SchemaValidator(documents: ["tree.json": tree, "loop.json": .object(["$ref": "loop.json"])])
        let schemas: [String] = [
            #"true"#, #"false"#, #"{"$ref": "tree.json"}"#, #"{"$ref": "missing.json"}"#, #"{"$ref": "loop.json"}"#,
            ##"{"$ref": "#/$defs/a", "$defs": {"a": {"type": "string", "minLength": 2}}, "maxLength": 3}"##,
            #"{"enum": ["a", 1, null], "const": "a"}"#, #"{"type": "number", "minimum": 0, "maximum": 10, "exclusiveMinimum": 0, "exclusiveMaximum": 10}"#,
            #"{"anyOf": [{"type": "string"}, {"type": "integer", "description": "a count"}], "not": {"const": 3}}"#,
            #"{"oneOf": [{"type": "number"}, {"type": "integer"}], "allOf": [{"minimum": 1}, {"maximum": 5}]}"#,
            #"{"type": "array", "minItems": 1, "maxItems": 2, "items": {"format": "uuid"}}"#,
            #"{"type": "object", "minProperties": 1, "maxProperties": 2, "required": ["a", "z", "a"], "properties": {"a": false}, "additionalProperties": false}"#,
            #"{"type": "string", "pattern": "^[A-Z]+$", "format": "date"}"#, #"{"type": "string", "pattern": "(unclosed"}"#,
            #"{"type": 7}"#, #"{"type": []}"#, #"[1, 2]"#,
        ]
        let instances: [String] = [
            #"null"#, #"true"#, #"0"#, #"3"#, #"5.5"#, #"10"#, #"-2"#, #""""#, #""a""#, #""ABC""#, #""abcd""#, #""2026-11-23""#,
            #"[]"#, #"[1, 2, 3]"#, #"["3f1c2a9e-5b7d-4e8a-9c1f-2d3e4f5a6b7c"]"#, #"{}"#, #"{"a": 1}"#, #"{"b": 1, "c": 2, "d": 3}"#,
            #"{"name": "root", "children": [{"name": "leaf", "x": 1}, {"children": [{"name": 2}]}], "extra": "no"}"#,
        ]
        for schemaText in schemas {
            let schema = try JSONValue(parsing: schemaText)
            let compiled = CompiledSchema(schema, validator: validator)
            for instanceText in instances {
                let instance = try JSONValue(parsing: instanceText)
                #expect(compiled.validate(instance) == validator.validate(instance, against: schema), "\(schemaText) on \(instanceText)")
            }
        }
    }
}
