/// One collection as the contracts that work on it declare it together: what a record holds, in which order, what is
/// kept apart, what must be unique, what lists show and where a file goes.
///
/// The executor stores records from this alone, so a field added to the contracts is stored and answered with no Swift.
public struct CollectionDeclaration: Sendable {
    /// The collection's name, e.g. `announcements`.
    public let name: String
    /// The stored schema's properties, in declared order: the read's success body (else the create's, without the
    /// secret). nil: no schema states it, and a record holds the sent object plus the generated fields.
    public let fields: [String]?
    /// The id of the contract whose `create` makes records; nil: none does.
    public let createContractID: String?
    /// The field whose value names a record: the create's `key`, else its first generated field.
    public let keyField: String?
    /// Fields kept apart from the record (answered once on create, never read back), e.g. `managementPassword`.
    public let secret: [String]
    /// Fields no two records may share.
    public let unique: [String]
    /// What the collection's list shows; nil: no list is declared (every record belongs to a list).
    public let list: ListDeclaration?
    /// The file its attach-file takes; nil: records have no file.
    public let file: FileDeclaration?
    /// The attach-file's key (the path parameter its `url` names the record by), e.g. `id`.
    public let fileKey: String?
    /// The create's generated fields, in order.
    public let generated: [(field: String, generator: StateGenerator)]
    /// The stored schema's property schemas by name, their `$ref`s followed (what a fixture's values are checked against).
    public let fieldSchemas: [String: JSONValue]

    /// The fields lists need set (`where: {"not": null}`).
    public var listedWhenSet: [String] { list?.notNull ?? [] }

    /// Every collection the declarations name, in the order of their first contract (by file name).
    static func all(contracts: [Contract], declarations: [String: StateDeclaration], validator: SchemaValidator?) -> [CollectionDeclaration] {
        var order: [String] = []
        var byName: [String: [(Contract, StateDeclaration)]] = [:]
        for contract in contracts {
            guard let declaration = declarations[contract.id] else { continue }
            if byName[declaration.collection] == nil { order.append(declaration.collection) }
            byName[declaration.collection, default: []].append((contract, declaration))
        }
        return order.map { name in
            let members = byName[name] ?? []
            func first(_ action: EndpointAction) -> (Contract, StateDeclaration)? { members.first { $0.1.action == action } }
            let create = first(.create)
            let secret = create?.1.secret ?? []
            var stored: (names: [String], schemas: [String: JSONValue])?
            if let read = first(.read), let found = successFields(read.0, validator: validator) {
                stored = found
            } else if let create, create.1.answer == nil, let found = successFields(create.0, validator: validator) {
                stored = (found.names.filter { !secret.contains($0) }, found.schemas)
            }
            let attach = first(.attachFile)
            return CollectionDeclaration(
                name: name, fields: stored?.names, createContractID: create?.0.id,
                keyField: create.flatMap { $0.1.key ?? $0.1.generate.first?.field }, secret: secret,
                unique: create?.1.unique.map(\.field) ?? [], list: first(.list)?.1.list, file: attach?.1.file, fileKey: attach?.1.key,
                generated: create?.1.generate ?? [], fieldSchemas: stored?.schemas ?? [:])
        }
    }

    /// The property names of `contract`'s success body schema, in order, and their schemas, `$ref`s followed.
    static func successFields(_ contract: Contract, validator: SchemaValidator?) -> (names: [String], schemas: [String: JSONValue])? {
        guard let body = contract.successResponse?.body else { return nil }
        let (schema, scope) = resolved(body, in: SchemaValidator.Scope(key: contract.file.lastPathComponent, root: body), validator: validator)
        guard let properties = schema["properties"]?.objectValue else { return nil }
        var schemas: [String: JSONValue] = [:]
        for (name, property) in properties { schemas[name] = resolved(property, in: scope, validator: validator).schema }
        return (properties.keys, schemas)
    }

    private static func resolved(_ start: JSONValue, in startScope: SchemaValidator.Scope, validator: SchemaValidator?)
        -> (schema: JSONValue, scope: SchemaValidator.Scope)
    {
        var (schema, scope) = (start, startScope)
        var hops = 0
        while let ref = schema["$ref"]?.stringValue, hops < SchemaValidator.maximumReferenceDepth,
            let (target, targetScope) = validator?.resolve(ref, in: scope)
        {
            schema = target
            scope = targetScope
            hops += 1
        }
        return (schema, scope)
    }
}
