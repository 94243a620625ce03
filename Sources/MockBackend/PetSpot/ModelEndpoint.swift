import ContractKit

/// One route of the contracts as the backend serves it, worked out once at start: the contract, what the model does
/// for it, and how its body is read.
struct ModelEndpoint: Sendable {
    /// How the endpoint's request body is read.
    enum BodyKind: Sendable {
        /// Through the JSON body parser (the contract documents a JSON body).
        case json
        /// As multipart form data (the contract documents parts).
        case multipart
        /// Never read.
        case none
    }

    /// The contract's id.
    let contractID: String
    /// What the model does; nil: answered from the contract's examples.
    let action: EndpointAction?
    /// How the body is read.
    let bodyKind: BodyKind
    /// Under a static file mount: no ETag from the service file's algorithm.
    let isStatic: Bool
    /// The path parameter naming the record (`x-state.key`, else the path's first parameter).
    let key: String?
    /// The most body bytes a multipart request may bring (its file limit plus room for framing); nil for other kinds.
    let multipartLimit: Int?
    /// The example chooser of a stateless endpoint.
    let examples: ExampleResponder?
    /// Whether its `x-state` works on a small record collection (fb9f56a's users) rather than the announcement store,
    /// which holds the collection of the create whose body rules the model answers with (`ModelRules`).
    var onRecordCollection = false

    /// The endpoints of every route of `contracts`, in route order.
    static func all(_ contracts: ContractSet) -> [ModelEndpoint] {
        // The store's collection: that of the first create, the one `ModelRules` takes the create rules from.
        let storeCollection = contracts.contracts.first { EndpointAction.of($0) == .create }.flatMap { contracts.state.declarations[$0.id]?.collection }
        return contracts.routes.routes.map { route in
            guard let contract = contracts.contract(id: route.contractID) else {
                return ModelEndpoint(contractID: route.contractID, action: nil, bodyKind: .none, isStatic: route.isStatic, key: nil,
                                     multipartLimit: nil, examples: nil)
            }
            let action = EndpointAction.of(contract)
            let bodyKind: BodyKind = contract.request.body != nil ? .json : contract.request.parts.isEmpty ? .none : .multipart
            let check = contracts.requestChecks[contract.id] ?? CompiledRequestCheck(contract, validator: contracts.validator)
            return ModelEndpoint(
                contractID: contract.id, action: action, bodyKind: bodyKind, isStatic: route.isStatic,
                key: contract.source["x-state"]?["key"]?.stringValue ?? contract.path.parameterNames.first,
                // The file check answers a too-large file itself, so the body may bring a file just over the limit.
                multipartLimit: bodyKind == .multipart ? contract.request.maxFileBytes.map { $0 + PetSpotBackend.multipartFramingBytes } : nil,
                examples: action == nil || action == .authenticate ? ExampleResponder(contract: contract, check: check) : nil,
                onRecordCollection: contracts.state.declarations[contract.id].map { $0.collection != storeCollection } ?? false)
        }
    }
}
