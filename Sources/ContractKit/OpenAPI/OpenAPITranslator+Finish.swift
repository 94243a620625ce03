import Foundation

/// The last pass over the translated folder: every answer gets an example and every error answer with a body a code.
extension OpenAPITranslator {
    /// Fills in what the folder format requires and a team document may leave out.
    mutating func finish() {
        var documents: [String: JSONValue] = [:]
        for (key, value) in folder where key.hasPrefix("schemas/") { documents[key] = SchemaReference.canonicalize(value, documentKey: key) }
        let synthesizer = ExampleSynthesizer(validator: SchemaValidator(documents: documents))
        for (key, index) in pendingExamples {
            guard case .object(var contract)? = folder[key], case .array(var responses)? = contract["responses"],
                responses.indices.contains(index), case .object(var response) = responses[index] else { continue }
            var example: JSONObject = ["name": "made from the schema"]
            if let body = response["body"] {
                guard let value = synthesizer.example(for: SchemaReference.canonicalize(body, documentKey: key)) else { continue }
                example["body"] = value
            }
            response["examples"] = [.object(example)]
            if let status = response["status"]?.intValue { sourceMap.addMadeExample(key: key, status: status, name: "made from the schema") }
            responses[index] = .object(response)
            contract["responses"] = .array(responses)
            folder[key] = .object(contract)
        }
        for key in folder.keys where !key.contains("/") && key != ServiceFile.fileName && key != KnownDefect.fileName {
            guard case .object(var contract)? = folder[key], case .array(var responses)? = contract["responses"] else { continue }
            for (i, item) in responses.enumerated() {
                guard case .object(var response) = item, let status = response["status"]?.intValue, status >= 400,
                    response["body"] != nil, response["code"] == nil else { continue }
                let fromExample = response["examples"]?.arrayValue?.lazy.compactMap { $0["body"]?["error"]?["code"]?.stringValue }.first
                response["code"] = .string(fromExample ?? "HTTP_\(status)")
                if fromExample == nil { sourceMap.addMadeCode(key: key, status: status, code: "HTTP_\(status)") }
                responses[i] = .object(Self.ordered(response))
            }
            contract["responses"] = .array(responses)
            folder[key] = .object(contract)
        }
    }
}
