import Foundation

/// A contract's request schemas compiled when the contracts load: the body and every path, query and header parameter.
public struct CompiledRequestCheck: Sendable {
    /// The request body's schema, compiled; nil when the request documents no JSON body.
    public let body: CompiledSchema?
    /// The path parameters, in the contract's order.
    public let pathParameters: [CompiledParameter]
    /// The query parameters, in the contract's order.
    public let query: [CompiledParameter]
    /// The documented request headers, in the contract's order.
    public let headers: [CompiledParameter]

    /// Compiles `contract`'s request with `validator`'s documents.
    public init(_ contract: Contract, validator: SchemaValidator) {
        body = contract.request.body.map { CompiledSchema($0, validator: validator) }
        pathParameters = contract.pathParameters.map { CompiledParameter($0, validator: validator) }
        query = contract.request.query.map { CompiledParameter($0, validator: validator) }
        headers = contract.request.headers.map { CompiledParameter($0, validator: validator) }
    }
}
