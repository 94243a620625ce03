import ContractKit
import Foundation

/// The cross-request rules no single schema states, read from the contracts' `x-state` and checked from what the traffic
/// itself showed. For each collection: a create's generated key and secrets have their generator's form, and its
/// `initial` fields their starting value; the Basic user is the record's key where the credentials name it (and the
/// server takes exactly the secret the create handed out, as the attach-file's `credentials` compare it); after a file is
/// attached its field holds the address the declaration publishes, before that its initial value; a secret is never read
/// back. Nothing here names an API: a contract set without `x-state` states none of it.
final class ExchangeInvariants: Sendable {
    /// What one collection's declarations say the invariants need, worked out once.
    struct CollectionRules: Sendable {
        /// The collection's name.
        let name: String
        /// One record, in words: the name in the singular.
        let noun: String
        /// The field naming a record.
        let keyField: String
        /// The create's generated fields.
        let generated: [(field: String, generator: StateGenerator)]
        /// The create's starting values.
        let initial: JSONObject
        /// Fields answered once, on create, and never read back.
        let secrets: [String]
        /// The secret the attach-file's credentials compare (else the first secret): what the traffic remembers.
        let credentialField: String?
        /// Whether the credentials compare it with the password of Basic credentials.
        let credentialIsPassword: Bool
        /// The file the collection's attach-file stores, when it has one.
        let file: FileDeclaration?
        /// The attach-file's key: the name its published address calls the record's key by.
        let fileKey: String?

        init(_ name: String, state: StateModel) {
            self.name = name
            noun = Self.singular(name)
            let create = state.declaration(collection: name, action: .create)?.declaration
            let attach = state.declaration(collection: name, action: .attachFile)?.declaration
            keyField = create.flatMap { $0.key ?? $0.generate.first?.field } ?? "id"
            generated = create?.generate ?? []
            initial = create?.initial ?? JSONObject()
            secrets = create?.secret ?? []
            credentialField = attach?.credentials?.stored ?? create?.secret.first
            credentialIsPassword = attach?.credentials?.sent == .authPassword
            file = attach?.file
            fileKey = attach?.key
        }

        /// `parcels` → `parcel`, `categories` → `category`.
        static func singular(_ name: String) -> String {
            if name.hasSuffix("ies"), name.count > 3 { return String(name.dropLast(3)) + "y" }
            if name.hasSuffix("s"), !name.hasSuffix("ss"), name.count > 1 { return String(name.dropLast()) }
            return name
        }

        /// A field's name in words: `labelUrl` → `label url`.
        static func words(_ field: String) -> String {
            var out = ""
            for character in field {
                if character.isUppercase, !out.isEmpty { out.append(" ") }
                out.append(contentsOf: character.lowercased())
            }
            return out
        }

        /// How a secret is named in the never-read-back rule: the password, when Basic credentials carry it.
        func secretNoun(_ field: String) -> String {
            field == credentialField && credentialIsPassword ? "the password" : field
        }
    }

    private struct Key: Hashable {
        var collection: String
        var id: String
    }

    private struct Created {
        var secret: String?
        var hasFile = false
    }

    private struct State {
        var created: [Key: Created] = [:]
        var order: [Key] = []
    }

    /// The most records remembered; a long run forgets the oldest first.
    static let memoryLimit = 10_000

    private let contracts: ContractSet
    /// The rules of every collection the contracts declare, by name.
    let collections: [String: CollectionRules]
    private let state = Locked(State())

    init(contracts: ContractSet) {
        self.contracts = contracts
        var collections: [String: CollectionRules] = [:]
        for collection in contracts.state.collections {
            collections[collection.name] = CollectionRules(collection.name, state: contracts.state)
        }
        self.collections = collections
    }

    /// Forgets the records with these keys (in every collection), or every one when nil.
    func forget(_ ids: [String]?) {
        guard let ids else { return state.withLock { $0 = State() } }
        let gone = Set(ids)
        state.withLock { s in
            for key in s.order where gone.contains(key.id) { s.created[key] = nil }
            for key in s.created.keys where gone.contains(key.id) { s.created[key] = nil }
            s.order.removeAll { gone.contains($0.id) }
        }
    }

    func check(_ exchange: Exchange, match: ContractMatch, status: Int, body: JSONValue?) -> [ExchangeViolation] {
        let contract = match.contract
        let success = (200..<300).contains(status)
        let declaration = contracts.state.declaration(for: contract.id)
        let rules = declaration.flatMap { collections[$0.collection] }
        var found: [ExchangeViolation] = []
        func server(_ pointer: String, _ expected: String, _ got: String) {
            found.append(ExchangeViolation(contract: contract.id, pointer: pointer, expected: expected, got: got, side: .server))
        }
        if let auth = contract.request.auth, auth.scheme == "basic",
           let parameter = Self.userParameter(auth.credentials, declaration: declaration), let id = match.parameters[parameter],
           let user = basicAuthUser(exchange.requestHeader(auth.header)), user != id {
            found.append(ExchangeViolation(contract: contract.id, pointer: "header:\(auth.header)",
                                           expected: "the \(rules?.noun ?? "record") \(parameter) \(id) as the Basic user (invariant: auth user = created \(parameter))",
                                           got: "user \"\(ViolationText.cut(user))\"", side: .client))
        }
        guard let declaration, let rules else { return found }
        let recordID = declaration.key.flatMap { match.parameters[$0] }
        switch declaration.action {
        case .create where success:
            guard let body else { break }
            let newID = body[rules.keyField]?.stringValue
            for (field, generator) in rules.generated where field == rules.keyField || rules.secrets.contains(field) {
                guard !Self.hasLooseForm(body[field], generator) else { continue }
                let what = field == rules.keyField ? "created \(field)" : CollectionRules.words(field)
                server("/\(field)", "\(Self.phrase(generator)) (invariant: \(what))", ViolationText.describe(body[field]))
            }
            for (field, value) in rules.initial {
                guard let actual = body[field], actual != value else { continue }
                let until = field == rules.file?.field ? "until upload" : "at creation"
                server("/\(field)", "\(value.serialized()) at creation (invariant: \(field) \(value.serialized()) \(until))", ViolationText.describe(actual))
            }
            if let newID { remember(Key(collection: rules.name, id: newID), secret: rules.credentialField.flatMap { body[$0]?.stringValue }) }
        case .attachFile:
            guard let recordID else { break }
            let key = Key(collection: rules.name, id: recordID)
            if let credentials = declaration.credentials, credentials.sent == .authPassword {
                let known = state.withLock { $0.created[key] }
                let sent = Self.basicPassword(exchange.requestHeader(contract.request.auth?.header ?? "authorization"))
                if let known, let secret = known.secret, let sent {
                    let refused = credentials.mismatch.status
                    if sent == secret && status == refused {
                        server("status", "\(contract.successResponse?.status ?? 201) for the password the create answer handed out (invariant: auth = created credentials)", "\(status)")
                    } else if sent != secret && success {
                        server("status", "\(refused) for a password other than the one handed out", "\(status)")
                    }
                }
            }
            if success { state.withLock { $0.created[key, default: Created()].hasFile = true } }
        case .delete where success:
            if let recordID { state.withLock { $0.created[Key(collection: rules.name, id: recordID)] = nil } }
        case .read where success:
            if let object = body?.objectValue { found += readBack(object, pointer: "", contract: contract.id, rules: rules) }
        case .list where success:
            let wrap = declaration.list?.wrap
            let items = (wrap.map { body?[$0] } ?? body)?.arrayValue ?? []
            let prefix = wrap.map { JSONPointer.appending("", $0) } ?? ""
            for (index, item) in items.enumerated() {
                if let object = item.objectValue {
                    found += readBack(object, pointer: JSONPointer.appending(prefix, index), contract: contract.id, rules: rules)
                }
            }
        default:
            break
        }
        return found
    }

    /// The read-back rules for one record object.
    private func readBack(_ object: JSONObject, pointer: String, contract: String, rules: CollectionRules) -> [ExchangeViolation] {
        var found: [ExchangeViolation] = []
        for secret in rules.secrets where object[secret] != nil {
            found.append(ExchangeViolation(contract: contract, pointer: JSONPointer.appending(pointer, secret),
                                           expected: "absent (invariant: \(rules.secretNoun(secret)) is never read back)", got: "present", side: .server))
        }
        guard let file = rules.file, let id = object[rules.keyField]?.stringValue,
              let known = state.withLock({ $0.created[Key(collection: rules.name, id: id)] }) else { return found }
        let value = object[file.field]
        let at = JSONPointer.appending(pointer, file.field)
        if known.hasFile {
            let url = value?.stringValue ?? ""
            let (shown, pattern) = Self.address(file.url, record: object, key: rules.fileKey, id: id)
            if url.range(of: pattern, options: .regularExpression) == nil {
                found.append(ExchangeViolation(contract: contract, pointer: at, expected: "\(shown) after the upload (invariant: \(file.field))",
                                               got: ViolationText.describe(value), side: .server))
            }
        } else if let value, value != (rules.initial[file.field] ?? .null) {
            found.append(ExchangeViolation(contract: contract, pointer: at,
                                           expected: "\((rules.initial[file.field] ?? .null).serialized()) before any upload (invariant: \(file.field))",
                                           got: ViolationText.describe(value), side: .server))
        }
        return found
    }

    /// A published address template (`/images/{id}.{ext}`) for one record: as people read it (`/images/<id>.<ext>` with
    /// the record's values in) and as an anchored pattern (`{ext}` and fields the record lacks: one segment, not empty).
    static func address(_ template: String, record: JSONObject, key: String?, id: String) -> (shown: String, pattern: String) {
        var shown = ""
        var pattern = "^"
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            let literal = String(rest[..<open])
            shown += literal
            pattern += NSRegularExpression.escapedPattern(for: literal)
            let name = String(rest[rest.index(after: open)..<close])
            if let value = name == key ? id : record[name]?.stringValue, name != "ext" {
                shown += value
                pattern += NSRegularExpression.escapedPattern(for: value)
            } else {
                shown += "<\(name)>"
                pattern += "[^/]+"
            }
            rest = rest[rest.index(after: close)...]
        }
        shown += rest
        pattern += NSRegularExpression.escapedPattern(for: String(rest)) + "$"
        return (shown, pattern)
    }

    /// The path parameter the Basic user must equal: the user part of the credentials (`{id}:{<secret>}`),
    /// else the key of a declaration whose credentials compare the Basic password.
    static func userParameter(_ credentials: String?, declaration: StateDeclaration?) -> String? {
        if let credentials, let colon = credentials.firstIndex(of: ":") {
            let user = credentials[..<colon]
            guard user.hasPrefix("{"), user.hasSuffix("}"), user.count > 2 else { return nil }
            return String(user.dropFirst().dropLast())
        }
        guard let declaration, declaration.credentials?.sent == .authPassword else { return nil }
        return declaration.key
    }

    /// The form a generator's value has, in words.
    static func phrase(_ generator: StateGenerator) -> String {
        switch generator {
        case .uuidV4: return "a UUID"
        case .digits6: return "6 digits"
        case .nowISOMilliseconds: return "an ISO 8601 time with milliseconds"
        case .jwtHS256: return "a JSON Web Token"
        }
    }

    /// Whether `value` has the generator's form, loosely: any UUID, any six digits; the others by their own check with
    /// no clock (the answer's own check holds them to the server's time).
    static func hasLooseForm(_ value: JSONValue?, _ generator: StateGenerator) -> Bool {
        guard let value else { return false }
        switch generator {
        case .uuidV4: return value.stringValue.flatMap(UUID.init(uuidString:)) != nil
        case .digits6: return value.stringValue.map { $0.utf8.count == 6 && $0.utf8.allSatisfy { (48...57).contains($0) } } == true
        case .nowISOMilliseconds, .jwtHS256: return generator.hasForm(value, context: GeneratedValueContext())
        }
    }

    private func remember(_ key: Key, secret: String?) {
        state.withLock { s in
            if s.created[key] == nil { s.order.append(key) }
            s.created[key] = Created(secret: secret)
            if s.order.count > Self.memoryLimit {
                let dropped = s.order.count - Self.memoryLimit / 2
                for old in s.order.prefix(dropped) { s.created[old] = nil }
                s.order.removeFirst(dropped)
            }
        }
    }

    /// The password part of Basic credentials.
    static func basicPassword(_ header: String?) -> String? {
        guard let header else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "basic",
              let data = Data(base64Encoded: String(parts[1]).trimmingCharacters(in: .whitespaces)),
              let text = String(data: data, encoding: .utf8), let colon = text.firstIndex(of: ":") else { return nil }
        return String(text[text.index(after: colon)...])
    }
}
