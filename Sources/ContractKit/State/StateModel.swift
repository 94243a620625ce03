import Foundation

/// Every contract's compiled `x-state` and auth checks, by contract id: what the executor serves stateful endpoints from.
public struct StateModel: Sendable {
    /// State declarations by contract id.
    public let declarations: [String: StateDeclaration]
    /// Auth checks with their answers by contract id.
    public let auth: [String: AuthDeclaration]
    /// Every collection the declarations name, in the order of their first contract: what its records hold.
    public let collections: [CollectionDeclaration]

    /// Compiles the declarations of `contracts` (a lint-clean set; problems were reported when it loaded); `validator`
    /// follows the `$ref`s of the stored schemas (without it, only inline schemas state a collection's fields).
    public init(contracts: [Contract], validator: SchemaValidator? = nil) {
        var declarations: [String: StateDeclaration] = [:]
        var auth: [String: AuthDeclaration] = [:]
        for contract in contracts {
            var ignored: [LintProblem] = []
            declarations[contract.id] = StateDeclarationReader.state(of: contract, file: contract.file.lastPathComponent, problems: &ignored)
            auth[contract.id] = StateDeclarationReader.auth(of: contract, file: contract.file.lastPathComponent, problems: &ignored)
        }
        self.declarations = declarations
        self.auth = auth
        self.collections = CollectionDeclaration.all(contracts: contracts, declarations: declarations, validator: validator)
    }

    /// The collection named `name`.
    public func collection(_ name: String) -> CollectionDeclaration? { collections.first { $0.name == name } }

    /// Every problem in the contracts' `x-state` and auth `x-errors`.
    static func problems(of contract: Contract, file: String) -> [LintProblem] {
        var problems: [LintProblem] = []
        _ = StateDeclarationReader.state(of: contract, file: file, problems: &problems)
        _ = StateDeclarationReader.auth(of: contract, file: file, problems: &problems)
        return problems
    }

    /// The declaration of the contract with this id.
    public func declaration(for contractID: String) -> StateDeclaration? { declarations[contractID] }

    /// The first declaration with this collection and action (e.g. the announcements' `create`).
    public func declaration(collection: String, action: StateDeclaration.Action) -> (contractID: String, declaration: StateDeclaration)? {
        declarations.sorted { $0.key < $1.key }.first { $0.value.collection == collection && $0.value.action == action }.map { ($0.key, $0.value) }
    }
}
