import Foundation

/// What the folder loader would refuse in a translated folder's examples, found before the folder is loaded: the
/// loader's own example checks (`ContractLoader+Examples`), run with the documents and validator a load builds, on
/// every named example of the contracts asked about, and an answer left without any example. `OpenAPIFolder` prunes
/// what this finds (`OpenAPIPruner`) and then loads the folder once, so the load's problems are never control flow.
struct OpenAPIExampleCheck {
    /// The folder's name, as the loader's: problems carry the display path of their file under it.
    let directory: URL

    /// A problem the check found, with the folder file it is in.
    struct Finding {
        let key: String
        let problem: LintProblem
    }

    /// Whether folder file `key` is a contract file (what the loader decodes as one).
    static func isContract(_ key: String) -> Bool {
        key.hasSuffix(".json") && !key.contains("/") && key != KnownDefect.fileName && key != ServiceFile.fileName
    }

    /// Every problem the loader's example checks report in the contract files `keys` of `files`, in the order a load
    /// reports them: files by name, in each the request's examples and then each response's (its list, then each
    /// example). Problems of other kinds (a schema's lint, a missing key) are the load's to report and are not looked for.
    func findings(in files: [String: JSONValue], keys: some Sequence<String>) -> [Finding] {
        var loader = ContractLoader(directory: directory, files: [:])
        loader.prepareExampleChecks(files)
        var found: [Finding] = []
        for key in keys.filter(Self.isContract).sorted() {
            guard case .object(let contract)? = files[key] else { continue }
            found += Self.findings(of: contract, key: key, loader: &loader).map { Finding(key: key, problem: $0) }
        }
        return found
    }

    /// The example problems of one contract, read as `ContractLoader.decodeContract` reads it.
    private static func findings(of contract: JSONObject, key: String, loader: inout ContractLoader) -> [LintProblem] {
        var found: [LintProblem] = []
        let template = contract["path"]?.stringValue.flatMap(PathTemplate.init)
        var request = RequestSpec.empty
        if case .object(let spec)? = contract["request"] {
            let body = spec["body"].map { SchemaReference.canonicalize($0, documentKey: key) }
            let query = loader.decodeParameters(spec["query"], key: key, pointer: "/request/query")
            request = RequestSpec(contentType: nil, auth: nil, headers: [], query: query, body: body, parts: [],
                                  maxBodyBytes: nil, maxFileBytes: nil, examples: [])
            // The parameters' own problems (their schemas' lint) are the load's.
            loader.problems = []
            if let list = spec["examples"] { _ = loader.decodeRequestExamples(list, key: key, body: body) }
            found += loader.problems
        }
        guard case .array(let responses)? = contract["responses"] else { return found }
        for (i, item) in responses.enumerated() {
            guard case .object(let response) = item else { continue }
            let pointer = JSONPointer.appending("/responses", i)
            let headers = loader.decodeParameters(response["headers"], key: key, pointer: JSONPointer.appending(pointer, "headers"))
            loader.problems = []
            _ = loader.decodeResponseExamples(response["examples"], key: key, pointer: pointer,
                                              status: response["status"]?.intValue.flatMap { $0 >= 100 ? $0 : nil },
                                              code: response["code"]?.stringValue, headers: headers,
                                              body: response["body"].map { SchemaReference.canonicalize($0, documentKey: key) },
                                              request: request, template: template)
            found += loader.problems
        }
        loader.problems = []
        return found
    }
}
