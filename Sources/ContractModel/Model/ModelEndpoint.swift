import ContractKit

/// One route of the contracts as the backend serves it, worked out once at start: the contract, what the model does
/// for it, and how its body is read.
///
/// A class, and its declarations looked up here once: every request took a copy of the endpoint (a dozen fields
/// retained and released) and two look-ups by contract id for its declarations.
final class ModelEndpoint: Sendable {
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
    /// The layout of the collection its `x-state` works on; nil for a stateless endpoint.
    let layout: RecordLayout?
    /// Its compiled body rules (`x-errors`, storage), looked up once here rather than per request.
    let bodyRules: BodyRules?
    /// Its compiled query rules.
    let queryRules: QueryRules?
    /// The status of its first documented 2xx answer (a create's 201).
    let successStatus: Int
    /// Its contract's declarations (`x-state`, auth checks) with its collection's layout.
    let declared: DeclaredEndpoint

    init(contractID: String, action: EndpointAction?, bodyKind: BodyKind, isStatic: Bool, key: String?, multipartLimit: Int?,
         examples: ExampleResponder?, layout: RecordLayout? = nil, bodyRules: BodyRules? = nil, queryRules: QueryRules? = nil,
         successStatus: Int = 200, state: StateModel) {
        self.contractID = contractID
        self.action = action
        self.bodyKind = bodyKind
        self.isStatic = isStatic
        self.key = key
        self.multipartLimit = multipartLimit
        self.examples = examples
        self.layout = layout
        self.bodyRules = bodyRules
        self.queryRules = queryRules
        self.successStatus = successStatus
        declared = DeclaredEndpoint(contractID: contractID, state: state.declarations[contractID], auth: state.auth[contractID], layout: layout)
    }

    /// The endpoints of every route of `contracts`, in route order, each with its collection's layout from `layouts`.
    static func all(_ contracts: ContractSet, layouts: [RecordLayout]) -> [ModelEndpoint] {
        return contracts.routes.routes.map { route in
            guard let contract = contracts.contract(id: route.contractID) else {
                return ModelEndpoint(contractID: route.contractID, action: nil, bodyKind: .none, isStatic: route.isStatic, key: nil,
                                     multipartLimit: nil, examples: nil, state: contracts.state)
            }
            let collection = contracts.state.declarations[contract.id]?.collection
            let action = EndpointAction.of(contract)
            let bodyKind: BodyKind = contract.request.body != nil ? .json : contract.request.parts.isEmpty ? .none : .multipart
            let check = contracts.requestChecks[contract.id] ?? CompiledRequestCheck(contract, validator: contracts.validator)
            return ModelEndpoint(
                contractID: contract.id, action: action, bodyKind: bodyKind, isStatic: route.isStatic,
                key: contract.source["x-state"]?["key"]?.stringValue ?? contract.path.parameterNames.first,
                // The file check answers a too-large file itself, so the body may bring a file just over the limit.
                multipartLimit: bodyKind == .multipart ? contract.request.maxFileBytes.map { $0 + ModelExecutor.multipartFramingBytes } : nil,
                examples: action == nil ? ExampleResponder(contract: contract, check: check) : nil,
                layout: collection.flatMap { name in layouts.first { $0.name == name } },
                bodyRules: contracts.requestRules[contract.id]?.body, queryRules: contracts.requestRules[contract.id]?.query,
                successStatus: contract.successResponse?.status ?? 200, state: contracts.state)
        }
    }
}
