/// What a contract's examples promise a client: for each documented request, which answer it gets and, for an error,
/// which message and field. Two versions that answer the same documented request differently changed something a
/// client can observe even where every schema is the same (a rule's message, or a request that now fails).
extension ContractDiff {
    /// The answer a response example documents for its request.
    struct DocumentedAnswer: Equatable {
        let label: String
        let message: String?
        let field: String?
        let example: String
        let responseIndex: Int
        let exampleIndex: Int

        /// The same answer, ignoring where it is written.
        func sameOutcome(as other: DocumentedAnswer) -> Bool {
            label == other.label && message == other.message && field == other.field
        }
    }

    /// Each example request of `contract`, keyed by everything that is sent, with the answer documented for it.
    static func documentedAnswers(_ contract: Contract) -> [String: DocumentedAnswer] {
        var answers: [String: DocumentedAnswer] = [:]
        for (responseIndex, response) in contract.responses.enumerated() {
            for (exampleIndex, example) in response.examples.enumerated() {
                guard let request = example.request else { continue }
                let error = example.body?["error"]
                let answer = DocumentedAnswer(
                    label: response.label, message: error?["message"]?.stringValue, field: error?["field"]?.stringValue,
                    example: example.name, responseIndex: responseIndex, exampleIndex: exampleIndex)
                answers[requestKey(request)] = answers[requestKey(request)] ?? answer
            }
        }
        return answers
    }

    static func requestKey(_ request: ExampleRequest) -> String {
        let body = request.rawBody ?? request.body.map(canonical)?.serialized() ?? ""
        func sorted(_ pairs: [String: String]) -> String { pairs.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "&") }
        return [body, sorted(request.headers), sorted(request.query), sorted(request.pathParameters), sorted(request.parts)]
            .joined(separator: "\u{1}")
    }

    /// The same JSON with every object's keys sorted: key order is not part of what a request means here.
    static func canonical(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let object): return .object(JSONObject(object.sorted { $0.key < $1.key }.map { ($0.key, canonical($0.value)) }))
        case .array(let items): return .array(items.map(canonical))
        default: return value
        }
    }

    /// Reports every documented request that both versions document and answer differently: breaking, since a client
    /// that relied on the old answer (a success, a status, a message it shows) sees another.
    mutating func compareDocumentedAnswers(_ before: Contract, _ after: Contract) {
        let old = Self.documentedAnswers(before), new = Self.documentedAnswers(after)
        for (key, was) in old.sorted(by: { ($0.value.responseIndex, $0.value.exampleIndex) < ($1.value.responseIndex, $1.value.exampleIndex) }) {
            guard let now = new[key], !was.sameOutcome(as: now) else { continue }
            let site = Site(contract: after, pointer: "/responses/\(now.responseIndex)/examples/\(now.exampleIndex)", isRequest: false)
            if was.label != now.label {
                record(.breaking, .documentedAnswerChanged, site,
                       "the request of example \"\(was.example)\" is now answered \(now.label)\(Self.detail(now)) (was \(was.label)\(Self.detail(was)))")
            } else {
                record(.breaking, .documentedAnswerChanged, site,
                       "the \(now.label) answer to the request of example \"\(was.example)\" changed to\(Self.detail(now)) (was\(Self.detail(was)))")
            }
        }
    }

    private static func detail(_ answer: DocumentedAnswer) -> String {
        var parts: [String] = []
        if let field = answer.field { parts.append("field \(field)") }
        if let message = answer.message { parts.append("\"\(message)\"") }
        return parts.isEmpty ? "" : " " + parts.joined(separator: ", ")
    }
}
