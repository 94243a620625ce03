import ContractKit
import ContractModel
import MockBackend
import Foundation

/// The cross-request rules no single schema states, each read from the `x-state` the contracts declare, and the capture
/// of what later checks need.
///
/// Nothing here knows an API: a create's `initial` fields hold in its answer, a read never shows the secrets its
/// collection's create hands out, a read after a file was attached shows the address the `attach-file` declaration
/// publishes, and a list holds only records its `where` admits, the created one among them once it qualifies. Contracts
/// without `x-state` (a team's own OpenAPI document) state none of this, so none of it is held against the server: only
/// the created record's id is captured, for the operations that need one.
enum InvariantCheck {
    /// Mismatches of the invariants the contracts state for `check`'s answer; captures the created record into `state`.
    static func mismatches(_ check: VerificationCheck, _ answer: HTTPAnswer, _ state: inout VerificationState,
                           contracts: ContractSet) -> [Mismatch] {
        guard answer.status == check.response.status, (200..<300).contains(answer.status) else { return [] }
        let declaration = contracts.state.declaration(for: check.contractID)
        if let declaration, declaration.action == .attachFile, check.recipe.pathParameters[declaration.key ?? "id"] == nil {
            // The record this run created now has its file: later reads and lists are held to what the declaration publishes.
            state.fileAttached = state.id != nil
        }
        guard let body = try? JSONValue(parsing: answer.body) else { return [] }
        guard let declaration else {
            // No declaration names the secret: a create's answer field named as one (a password, a secret) opens the
            // record for the Basic credentials an operation of the set asks for.
            let secret = body.objectValue.flatMap(ServerValues.secretField)
            captureCreated(check, body: body, answer: answer, &state, key: "id", secret: secret)
            return []
        }
        let create = contracts.state.declaration(collection: declaration.collection, action: .create)?.declaration
        let attach = contracts.state.declaration(collection: declaration.collection, action: .attachFile)?.declaration
        let keyField = create.flatMap { $0.key ?? $0.generate.first?.field } ?? "id"
        var found: [Mismatch] = []
        switch declaration.action {
        case .create:
            for (field, value) in declaration.initial {
                guard let actual = body[field], actual != value else { continue }
                found.append(Mismatch("invariant: \(field) is \(value.serialized()) at creation", expected: value.serialized(),
                                      actual: ViolationText.describe(actual)))
            }
            captureCreated(check, body: body, answer: answer, &state, key: keyField, secret: declaration.secret.first)
        case .read:
            guard let object = body.objectValue else { break }
            found += secretsShown(object, create: create)
            if let file = attach?.file, state.fileAttached, let id = state.id, object[keyField]?.stringValue == id {
                let url = object[file.field]?.stringValue ?? ""
                if Self.matches(url, template: file.url, record: object) {
                    state.photoFile = url.split(separator: "/").last.map(String.init)
                } else {
                    found.append(Mismatch("invariant: \(file.field) after the file is attached", expected: file.url,
                                          actual: ViolationText.describe(object[file.field])))
                }
            }
        case .list:
            guard let list = declaration.list else { break }
            let items = (list.wrap.map { body[$0] } ?? body)?.arrayValue ?? []
            for (index, item) in items.enumerated() {
                if let object = item.objectValue { found += secretsShown(object, create: create).map { Mismatch("\($0.subject) at /\(index)", expected: $0.expected, actual: $0.actual) } }
                for field in list.notNull where item[field] == nil || item[field] == .null {
                    found.append(Mismatch("invariant: the list holds only records with \(field) set", expected: "\(field) set on every item",
                                          actual: "item \(index) (\(ViolationText.describe(item[keyField]))) has \(ViolationText.describe(item[field]))"))
                }
            }
            // The created record qualifies once every field `where` needs is set: the attached file's, here.
            let qualifies = list.notNull.allSatisfy { $0 == attach?.file?.field && state.fileAttached }
            if let id = state.id, qualifies, check.recipe.query.isEmpty, !items.contains(where: { $0[keyField]?.stringValue == id }) {
                found.append(Mismatch("invariant: the list shows the created record", expected: "an item with \(keyField) \(id)",
                                      actual: "\(items.count) items without it"))
            }
        default:
            break
        }
        return found
    }

    /// A create's answer (any 2xx answer to a POST without a declaration) names the record the rest of the plan uses.
    static func captureCreated(_ check: VerificationCheck, body: JSONValue, answer: HTTPAnswer, _ state: inout VerificationState,
                               key: String, secret: String?) {
        guard check.recipe.method == "POST", let id = body[key]?.stringValue else { return }
        state.createdIDs.append(id)
        // The first created record is the one the rest of the plan uses.
        guard state.id == nil else { return }
        state.id = id
        state.secretField = secret
        if let secret { state.secret = body[secret]?.stringValue }
    }

    /// The create's secrets shown by a read: they are answered once, on create, and never read back.
    static func secretsShown(_ object: JSONObject, create: StateDeclaration?) -> [Mismatch] {
        (create?.secret ?? []).filter { object[$0] != nil }.map {
            Mismatch("invariant: reads never expose \($0)", expected: "no \($0) key", actual: "\($0) is present")
        }
    }

    /// Whether `url` is `template` with each `{field}` the record's value and `{ext}` any extension (no `/`, not empty).
    static func matches(_ url: String, template: String, record: JSONObject) -> Bool {
        var pattern = ""
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            pattern += NSRegularExpression.escapedPattern(for: String(rest[..<open]))
            let name = String(rest[rest.index(after: open)..<close])
            if let value = record[name]?.stringValue {
                pattern += NSRegularExpression.escapedPattern(for: value)
            } else {
                pattern += "[^/]+"
            }
            rest = rest[rest.index(after: close)...]
        }
        pattern += NSRegularExpression.escapedPattern(for: String(rest))
        return url.range(of: "^" + pattern + "$", options: .regularExpression) != nil
    }
}
