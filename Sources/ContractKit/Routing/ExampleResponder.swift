import Foundation

/// Answers a contract without `x-state` from its examples, as Prism and Specmatic do: the example whose request
/// matches what was sent; for a request its schemas refuse, the contract's first documented 400 (an assumption); else
/// the first success example. Values named in the response's `x-generate` are drawn fresh by the server.
public struct ExampleResponder: Sendable {
    /// The example chosen for one request.
    public struct Choice: Sendable {
        /// The documented response the example belongs to.
        public let response: ResponseSpec
        /// The example to answer with.
        public let example: ContractExample
        /// Body pointer → named generator (`now-iso-ms`, `uuid-v4`), from the response's `x-generate`.
        public let generated: [(pointer: String, generator: String)]
        /// What the model assumed to choose it; nil when the contract states it.
        public let assumption: String?
    }

    /// The generators `x-generate` may name.
    public static let generators = ["now-iso-ms", "uuid-v4"]

    private let contract: Contract
    private let check: CompiledRequestCheck

    /// A responder for `contract` using its compiled request check.
    public init(contract: Contract, check: CompiledRequestCheck) {
        self.contract = contract
        self.check = check
    }

    /// The example for a request with this parsed JSON body (nil: none was read), query items and decoded path parameters.
    public func choose(body: JSONValue?, query: [(name: String, value: String)], pathParameters: [String: String]) -> Choice? {
        var sentQuery: [String: String] = [:]
        for item in query where sentQuery[item.name] == nil { sentQuery[item.name] = item.value }
        for response in contract.responses {
            for example in response.examples {
                guard let request = example.request, request.rawBody == nil else { continue }
                guard request.body == nil || request.body == body, request.query == sentQuery,
                    request.pathParameters.allSatisfy({ pathParameters[$0.key] == $0.value })
                else { continue }
                return choice(response, example, assumption: nil)
            }
        }
        if let problem = firstProblem(body: body, query: sentQuery, pathParameters: pathParameters) {
            let refusal = contract.responses.first { $0.status == 400 && !$0.examples.isEmpty }
                ?? contract.responses.first { (400..<500).contains($0.status) && !$0.examples.isEmpty }
            if let refusal, let example = refusal.examples.first {
                return choice(refusal, example, assumption:
                    "\(contract.id): the request breaks its schema (\(problem)) and no example documents this request; answered the contract's first \(refusal.status) example \"\(example.name)\"")
            }
        }
        guard let success = contract.responses.first(where: { (200..<300).contains($0.status) && !$0.examples.isEmpty }),
            let example = success.examples.first else { return nil }
        return choice(success, example, assumption: nil)
    }

    private func choice(_ response: ResponseSpec, _ example: ContractExample, assumption: String?) -> Choice {
        Choice(response: response, example: example, generated: Self.generated(contract: contract, response: response), assumption: assumption)
    }

    /// The first way the request breaks the contract's request schemas, for a person; nil when it keeps them.
    private func firstProblem(body: JSONValue?, query: [String: String], pathParameters: [String: String]) -> String? {
        for parameter in check.pathParameters {
            guard let value = pathParameters[parameter.spec.name], let v = parameter.violations(value).first else { continue }
            return "path parameter \(parameter.spec.name): \(v.message)"
        }
        for parameter in check.query {
            guard let value = query[parameter.spec.name] else {
                if parameter.spec.required { return "query parameter \(parameter.spec.name) is missing" }
                continue
            }
            if let v = parameter.violations(value).first { return "query parameter \(parameter.spec.name): \(v.message)" }
        }
        if let schema = check.body {
            guard let body else { return "no JSON body" }
            if let v = schema.validate(body).first { return "body\(v.pointer.isEmpty ? "" : " " + v.pointer): \(v.message)" }
        }
        return nil
    }

    /// The response's `x-generate` as pointer → generator pairs, in file order.
    static func generated(contract: Contract, response: ResponseSpec) -> [(pointer: String, generator: String)] {
        guard let index = contract.responses.firstIndex(where: { $0.status == response.status && $0.code == response.code }),
            let members = contract.source["responses"]?.arrayValue?[index]["x-generate"]?.objectValue else { return [] }
        return members.compactMap { pointer, value in value.stringValue.map { (pointer, $0) } }
    }

    /// Problems in every response's `x-generate`: it must map body pointers to known generators.
    static func problems(contracts: [Contract], display: (URL) -> String) -> [LintProblem] {
        var problems: [LintProblem] = []
        for contract in contracts {
            for (i, response) in (contract.source["responses"]?.arrayValue ?? []).enumerated() {
                guard let value = response["x-generate"] else { continue }
                let at = JSONPointer.appending(JSONPointer.appending("/responses", i), "x-generate")
                guard let members = value.objectValue else {
                    problems.append(LintProblem(file: display(contract.file), pointer: at,
                        message: "x-generate must be an object of body pointer → generator (\(generators.joined(separator: ", "))), found \(SchemaValidator.describe(value))"))
                    continue
                }
                for (pointer, item) in members {
                    let itemAt = JSONPointer.appending(at, pointer)
                    if JSONPointer.tokens(pointer) == nil || pointer.isEmpty {
                        problems.append(LintProblem(file: display(contract.file), pointer: itemAt,
                            message: "\"\(pointer)\" is not a JSON pointer into the body such as \"/timestamp\""))
                    }
                    if !(item.stringValue.map(generators.contains) ?? false) {
                        problems.append(LintProblem(file: display(contract.file), pointer: itemAt,
                            message: "unknown generator \(SchemaValidator.describe(item)); known: \(generators.joined(separator: ", "))"))
                    }
                }
            }
        }
        return problems
    }
}
