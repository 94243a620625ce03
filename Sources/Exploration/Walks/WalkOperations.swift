import ContractKit
import ContractModel
import Foundation

/// The operations a walk can take, read from the contracts' `x-state` declarations (producers: create; consumers: read,
/// delete, attach-file, list, authenticate), per collection. No collection, field or route is named in Swift.
struct WalkOperations: Sendable {
    /// One collection's operations: the contract id of each, with its declaration.
    struct Collection: Sendable {
        let name: String
        /// The create contract and the JSON body it sends (the richest example).
        let create: (contractID: String, body: JSONObject)
        var reads: [String] = []
        var deletes: [String] = []
        var attaches: [String] = []
        var lists: [String] = []
        /// Authenticate contracts with their valid base body.
        var authenticates: [(contractID: String, body: JSONObject)] = []
        /// The fields the create declares unique, and whether each is stored as a lower-cased key.
        var unique: [String] = []
        /// The field that names a created record in paths (the first generated field, e.g. an id).
        var identity: String?
        /// Whether a list shows only records with a file attached (`where: {<file field>: {not: null}}`).
        var listNeedsFile = false
        /// The field an attach-file sets, and the fields a list requires non-null.
        var fileField: String?
        var listFilter: [String] = []
    }

    /// Collections that have a create with a JSON body, in contract order.
    let collections: [Collection]

    init(contracts: ContractSet, bodies: [(id: String, model: JSONBodyModel)]) {
        var found: [Collection] = []
        for contract in contracts.contracts {
            guard let declaration = contracts.state.declaration(for: contract.id), declaration.action == .create,
                let model = bodies.first(where: { $0.id == contract.id })?.model
            else { continue }
            let richest = contract.request.examples.compactMap { $0.body?.objectValue }.max { $0.count < $1.count } ?? model.base
            var collection = Collection(name: declaration.collection, create: (contract.id, richest))
            collection.unique = declaration.unique.map { $0.field }
            collection.identity = declaration.generate.first?.field
            found.append(collection)
        }
        for contract in contracts.contracts {
            guard let declaration = contracts.state.declaration(for: contract.id),
                let index = found.firstIndex(where: { $0.name == declaration.collection })
            else { continue }
            switch declaration.action {
            case .read where contract.pathParameters.count == 1: found[index].reads.append(contract.id)
            case .delete where contract.pathParameters.count == 1 && contract.request.auth?.scheme == "apiKey": found[index].deletes.append(contract.id)
            case .attachFile where contract.pathParameters.count == 1 && declaration.credentials?.sent == .authPassword:
                found[index].attaches.append(contract.id)
                if let field = declaration.file?.field { found[index].fileField = field }
            case .list: found[index].lists.append(contract.id)
                found[index].listFilter = declaration.list?.notNull ?? []
            case .authenticate:
                if let body = bodies.first(where: { $0.id == contract.id })?.model.base { found[index].authenticates.append((contract.id, body)) }
            default: break
            }
        }
        for index in found.indices {
            if let field = found[index].fileField { found[index].listNeedsFile = found[index].listFilter.contains(field) }
        }
        collections = found
    }
}

extension WalkOperations.Collection {
    /// Whether a walk in this collection has anything to do besides creating.
    var hasConsumers: Bool { !reads.isEmpty || !deletes.isEmpty || !attaches.isEmpty || !lists.isEmpty || !authenticates.isEmpty }
}
