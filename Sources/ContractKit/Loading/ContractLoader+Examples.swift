import Foundation

/// The checks of a contract's named examples, each problem at the example's pointer: a request's examples against its
/// body schema, a response's against its body schema, error code, headers and example request. The folder loader runs
/// them as it decodes a contract; `OpenAPIExampleCheck` runs the very same ones on a translated folder before that
/// folder's one load, so an example a document contradicts is judged by one set of rules and worded once.
extension ContractLoader {
    /// The request's `examples` (at `/request/examples`), each checked against the request's body schema `body`.
    mutating func decodeRequestExamples(_ list: JSONValue, key: String, body: JSONValue?) -> [ContractExample] {
        let file = display(key)
        let examples = decodeExamples(list, key: key, pointer: "/request/examples", allowRequest: false)
        for (i, example) in examples.enumerated() {
            let at = JSONPointer.appending(JSONPointer.appending("/request/examples", i), "body")
            guard let schema = body else {
                problems.append(LintProblem(file: file, pointer: at, message: "a request example needs a request body schema to check it against"))
                continue
            }
            checkInstance(example.body, against: schema, file: file, pointer: at, what: "the example \"\(example.name)\"")
        }
        return examples
    }

    /// The `examples` of the response at `pointer` (nil when it has none), each checked against the response's body
    /// schema, error `code`, `headers` and, for an example that names its request, the contract's `request` and path.
    mutating func decodeResponseExamples(_ list: JSONValue?, key: String, pointer: String, status: Int?, code: String?,
                                         headers: [ParameterSpec], body: JSONValue?, request: RequestSpec,
                                         template: PathTemplate?) -> [ContractExample] {
        let file = display(key)
        let listAt = JSONPointer.appending(pointer, "examples")
        var examples: [ContractExample] = []
        if let list {
            examples = decodeExamples(list, key: key, pointer: listAt, allowRequest: true)
            if list.arrayValue?.isEmpty == true {
                problems.append(LintProblem(file: file, pointer: listAt, message: "every response needs at least one named example"))
            }
        }
        for (i, example) in examples.enumerated() {
            let at = JSONPointer.appending(listAt, i)
            let what = "the example \"\(example.name)\""
            if let body {
                checkInstance(example.body, against: body, file: file, pointer: JSONPointer.appending(at, "body"), what: what)
            } else if example.body != nil {
                problems.append(LintProblem(file: file, pointer: JSONPointer.appending(at, "body"),
                    message: "\(what) has a body but the response has no body schema"))
            }
            if let code, let actual = example.body?["error"]?["code"]?.stringValue, actual != code {
                problems.append(LintProblem(file: file, pointer: JSONPointer.appending(at, "body/error/code"),
                    message: "\(what) carries the code \(actual) but the response's code is \(code)"))
            }
            if let exampleRequest = example.request {
                checkExampleRequest(exampleRequest, succeeds: status.map { (200..<300).contains($0) } ?? false,
                                    request: request, template: template, file: file,
                                    pointer: JSONPointer.appending(at, "request"), what: what)
            }
            for (name, text) in example.headers.sorted(by: { $0.key < $1.key }) {
                let headerAt = JSONPointer.appending(JSONPointer.appending(at, "headers"), name)
                guard let spec = headers.first(where: { $0.name.lowercased() == name.lowercased() }) else {
                    problems.append(LintProblem(file: file, pointer: headerAt, message: "\(what) sets the header \(name), which the response does not document"))
                    continue
                }
                checkInstance(.string(text), against: spec.schema, file: file, pointer: headerAt, what: what)
            }
        }
        return examples
    }
}
