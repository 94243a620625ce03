/// A contract's `x-state`: which collection it works on, what it does there, and the answers it gives on the way.
///
/// Compiled once when the folder loads (`ContractSet.state`); the executor reads these values, never the JSON. A class:
/// every request looks its declaration up, and handing out a reference costs one retain instead of a copy of every field.
public final class StateDeclaration: Sendable {
    /// What the endpoint does to its collection: the route table dispatches on the same actions.
    public typealias Action = EndpointAction

    /// How a key's value is turned into the stored key.
    public enum KeyTransform: String, Sendable, CaseIterable {
        /// Lower-cased (Unicode), untrimmed.
        case lowercase
    }

    /// The collection's name, e.g. `announcements`.
    public let collection: String
    /// What the endpoint does.
    public let action: Action
    /// The name whose value names the record: a path parameter (read, delete, attach-file, read-file) or a body field
    /// (create, authenticate); nil on a create whose key is its first generated field.
    public let key: String?
    /// How the key's value becomes the stored key; nil: as sent.
    public let keyTransform: KeyTransform?
    /// Fields the server makes, in order, each by a named generator.
    public let generate: [(field: String, generator: StateGenerator)]
    /// Fields a new record starts with whatever was sent (e.g. `photoUrl: null`).
    public let initial: JSONObject
    /// Fields answered once, on create, after every other field, and never read back.
    public let secret: [String]
    /// Fields no two records may share (non-empty strings only, compared as stored), each with its answer.
    public let unique: [(field: String, answer: DeclaredAnswer)]
    /// The answer when no record has the key.
    public let notFound: DeclaredAnswer?
    /// What opens the record (attach-file, authenticate).
    public let credentials: CredentialsDeclaration?
    /// What a list shows.
    public let list: ListDeclaration?
    /// The file of an attach-file.
    public let file: FileDeclaration?
    /// A read-file's published name, e.g. `{id}.{ext}`.
    public let fileName: String?
    /// The success body's fields, in order; nil: the record (plus `secret` on create).
    public let answer: [String]?
    /// How `jwt-hs256` fields are made.
    public let token: TokenDeclaration?

    init(collection: String, action: Action, key: String?, keyTransform: KeyTransform?, generate: [(field: String, generator: StateGenerator)],
         initial: JSONObject, secret: [String], unique: [(field: String, answer: DeclaredAnswer)], notFound: DeclaredAnswer?,
         credentials: CredentialsDeclaration?, list: ListDeclaration?, file: FileDeclaration?, fileName: String?, answer: [String]?,
         token: TokenDeclaration?) {
        self.collection = collection
        self.action = action
        self.key = key
        self.keyTransform = keyTransform
        self.generate = generate
        self.initial = initial
        self.secret = secret
        self.unique = unique
        self.notFound = notFound
        self.credentials = credentials
        self.list = list
        self.file = file
        self.fileName = fileName
        self.answer = answer
        self.token = token
    }

    /// The generator of `field`, if the server makes it.
    public func generator(of field: String) -> StateGenerator? { generate.first { $0.field == field }?.generator }

    /// The answer for a clash on `field`.
    public func uniqueAnswer(for field: String) -> DeclaredAnswer? { unique.first { $0.field == field }?.answer }

    /// The stored form of a key's value.
    public func storedKey(_ value: String) -> String {
        switch keyTransform {
        case .lowercase?: return value.lowercased()
        case nil: return value
        }
    }
}

extension EndpointAction {
    /// The keys an `x-state` with this action may have besides `collection` and `action`.
    var stateKeys: [String] {
        switch self {
        case .create: return ["key", "keyTransform", "generate", "initial", "secret", "unique", "answer", "token"]
        case .read, .delete: return ["key", "notFound"]
        case .list: return ["where", "filter", "order", "wrap"]
        case .attachFile: return ["key", "notFound", "credentials", "file", "generate"]
        case .readFile: return ["key", "name", "notFound"]
        case .authenticate: return ["key", "keyTransform", "notFound", "credentials", "generate", "answer", "token"]
        }
    }

    /// The keys it cannot do without.
    var requiredStateKeys: [String] {
        switch self {
        case .create, .list: return []
        case .read, .delete, .readFile: return ["key", "notFound"]
        case .attachFile: return ["key", "notFound", "credentials", "file"]
        case .authenticate: return ["key", "notFound", "credentials"]
        }
    }
}
