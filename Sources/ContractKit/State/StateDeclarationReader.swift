/// Reads and lints a contract's `x-state` and `request.auth.x-errors`, every problem with its file and JSON pointer.
enum StateDeclarationReader {
    /// The contract's state declaration; nil when it has none or it has problems (recorded in `problems`).
    static func state(of contract: Contract, file: String, problems: inout [LintProblem]) -> StateDeclaration? {
        guard let value = contract.source["x-state"] else { return nil }
        let pointer = "/x-state"
        guard let reader = ObjectReader(value, file: file, pointer: pointer, what: "x-state", problems: &problems) else { return nil }
        let before = problems.count
        let collection = reader.string("collection", problems: &problems)
        if collection?.isEmpty == true {
            problems.append(LintProblem(file: file, pointer: reader.at("collection"), message: "collection must name a collection"))
        }
        guard let actionName = reader.string("action", problems: &problems) else {
            reader.checkKeys(allowed: ["collection", "action"], required: ["collection", "action"], what: "x-state", problems: &problems)
            return nil
        }
        guard let action = StateDeclaration.Action(rawValue: actionName) else {
            problems.append(LintProblem(file: file, pointer: reader.at("action"),
                message: "unknown action \"\(actionName)\"; known: \(StateDeclaration.Action.allCases.map(\.rawValue).joined(separator: ", "))"))
            return nil
        }
        reader.checkKeys(allowed: ["collection", "action"] + action.stateKeys, required: ["collection", "action"] + action.requiredStateKeys,
                         what: "x-state with the action \(actionName)", problems: &problems)

        let key = reader.string("key", problems: &problems)
        if let key, [.read, .delete, .attachFile, .readFile].contains(action), !contract.path.parameterNames.contains(key) {
            problems.append(LintProblem(file: file, pointer: reader.at("key"),
                message: "key must be a path parameter of \(contract.pathTemplate) for the action \(actionName), found \"\(key)\""))
        }
        var keyTransform: StateDeclaration.KeyTransform?
        if let name = reader.string("keyTransform", problems: &problems) {
            keyTransform = StateDeclaration.KeyTransform(rawValue: name)
            if keyTransform == nil {
                problems.append(LintProblem(file: file, pointer: reader.at("keyTransform"),
                    message: "unknown keyTransform \"\(name)\"; known: \(StateDeclaration.KeyTransform.allCases.map(\.rawValue).joined(separator: ", "))"))
            }
        }
        let generate = generators(reader, file: file, problems: &problems)
        let token = reader.object["token"].flatMap { TokenDeclaration.read($0, file: file, pointer: reader.at("token"), problems: &problems) }
        if generate.contains(where: { $0.generator == .jwtHS256 }), reader.object["token"] == nil {
            problems.append(LintProblem(file: file, pointer: reader.at("generate"), message: "a jwt-hs256 field needs token (claims, lifetime, and secretEnvironment naming the server's key variable)"))
        }
        var initial = JSONObject()
        if let value = reader.object["initial"] {
            if let object = value.objectValue { initial = object } else {
                problems.append(LintProblem(file: file, pointer: reader.at("initial"), message: "initial must be an object of field → value"))
            }
        }
        let secret = strings(reader.object["secret"], file: file, pointer: reader.at("secret"), problems: &problems)
        var unique: [(field: String, answer: DeclaredAnswer)] = []
        if let value = reader.object["unique"] {
            if case .object(let members) = value {
                for (field, answerValue) in members {
                    if let answer = answer(answerValue, contract: contract, file: file, pointer: JSONPointer.appending(reader.at("unique"), field), problems: &problems) {
                        unique.append((field, answer))
                    }
                }
            } else {
                problems.append(LintProblem(file: file, pointer: reader.at("unique"), message: "unique must be an object of field → answer"))
            }
        }
        let notFound = reader.object["notFound"].flatMap { answer($0, contract: contract, file: file, pointer: reader.at("notFound"), problems: &problems) }
        let credentials = reader.object["credentials"].flatMap {
            CredentialsDeclaration.read($0, contract: contract, file: file, pointer: reader.at("credentials"), problems: &problems)
        }
        if let credentials { documented(credentials.mismatch, contract: contract, file: file, pointer: reader.at("credentials") + "/mismatch", problems: &problems) }
        let list = action == .list ? ListDeclaration.read(reader, contract: contract, file: file, problems: &problems) : nil
        let fileDeclaration = reader.object["file"].flatMap {
            FileDeclaration.read($0, contract: contract, file: file, pointer: reader.at("file"), problems: &problems)
        }
        for (rule, ruleAnswer) in fileDeclaration?.rules ?? [] {
            documented(ruleAnswer, contract: contract, file: file, pointer: reader.at("file") + "/x-errors/" + rule.rawValue, problems: &problems)
        }
        let fileName = reader.string("name", problems: &problems)
        if let fileName, fileName != "{id}.{ext}" {
            problems.append(LintProblem(file: file, pointer: reader.at("name"), message: "a stored file's name is \"{id}.{ext}\" (the only naming the store has), found \"\(fileName)\""))
        }
        let answerFields = reader.object["answer"].map { strings($0, file: file, pointer: reader.at("answer"), problems: &problems) }
        guard problems.count == before, let collection else { return nil }
        return StateDeclaration(
            collection: collection, action: action, key: key, keyTransform: keyTransform, generate: generate, initial: initial,
            secret: secret, unique: unique, notFound: notFound, credentials: credentials, list: list, file: fileDeclaration,
            fileName: fileName, answer: answerFields, token: token)
    }

    /// The contract's auth checks with their answers; nil when `request.auth` has no `x-errors`.
    static func auth(of contract: Contract, file: String, problems: inout [LintProblem]) -> AuthDeclaration? {
        guard let auth = contract.source["request"]?["auth"] else { return nil }
        let declaration = AuthDeclaration.read(auth, file: file, problems: &problems)
        for (check, checkAnswer) in declaration?.answers ?? [] {
            documented(checkAnswer, contract: contract, file: file, pointer: "/request/auth/x-errors/" + check.rawValue, problems: &problems)
        }
        return declaration
    }

    /// An array of strings; problems for anything else.
    static func strings(_ value: JSONValue?, file: String, pointer: String, problems: inout [LintProblem]) -> [String] {
        guard let value else { return [] }
        guard let items = value.arrayValue else {
            problems.append(LintProblem(file: file, pointer: pointer, message: "expected an array of names, found \(SchemaValidator.describe(value))"))
            return []
        }
        var out: [String] = []
        for (i, item) in items.enumerated() {
            if let text = item.stringValue { out.append(text) } else {
                problems.append(LintProblem(file: file, pointer: JSONPointer.appending(pointer, i), message: "expected a name, found \(SchemaValidator.describe(item))"))
            }
        }
        return out
    }

    private static func generators(_ reader: ObjectReader, file: String, problems: inout [LintProblem]) -> [(field: String, generator: StateGenerator)] {
        guard let value = reader.object["generate"] else { return [] }
        guard case .object(let members) = value else {
            problems.append(LintProblem(file: file, pointer: reader.at("generate"), message: "generate must be an object of field → generator"))
            return []
        }
        var out: [(field: String, generator: StateGenerator)] = []
        for (field, name) in members {
            let at = JSONPointer.appending(reader.at("generate"), field)
            guard let text = name.stringValue, let generator = StateGenerator(rawValue: text) else {
                problems.append(LintProblem(file: file, pointer: at,
                    message: "unknown generator \(name.stringValue.map { "\"\($0)\"" } ?? SchemaValidator.describe(name)); known: \(StateGenerator.names)"))
                continue
            }
            out.append((field, generator))
        }
        return out
    }

    private static func answer(_ value: JSONValue, contract: Contract, file: String, pointer: String, problems: inout [LintProblem]) -> DeclaredAnswer? {
        guard let answer = DeclaredAnswer.read(value, file: file, pointer: pointer, problems: &problems) else { return nil }
        documented(answer, contract: contract, file: file, pointer: pointer, problems: &problems)
        return answer
    }

    /// A declared answer must be one the contract documents (same status and code), or clients reading the contract miss it.
    private static func documented(_ answer: DeclaredAnswer, contract: Contract, file: String, pointer: String, problems: inout [LintProblem]) {
        guard contract.response(status: answer.status, code: answer.code) == nil else { return }
        problems.append(LintProblem(file: file, pointer: pointer,
            message: "the answer \(answer.status) \(answer.code) is not among the contract's responses; document it there"))
    }
}
