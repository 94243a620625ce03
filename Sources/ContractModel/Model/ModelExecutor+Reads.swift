import ContractKit

extension ModelExecutor {
    /// `read`: the record named by the declared `key` as the API renders it (with its cached weak ETag), else `notFound`.
    func read(_ model: ModelEndpoint, _ endpoint: DeclaredEndpoint, parameters: [String: String]) throws -> ModelAnswer {
        let state = try endpoint.requireState()
        let layout = try endpoint.requireLayout()
        guard let (json, etag) = state.key.flatMap({ parameters[$0] }).flatMap({ store.recordForReading(in: layout.index, id: $0) }) else {
            guard let notFound = state.notFound else { throw UndeclaredState(contractID: endpoint.contractID, what: "notFound") }
            throw ModelError(notFound, parameters: parameters)
        }
        var response = ModelAnswer(status: HTTPStatus(statusCode: model.successStatus), headers: Self.jsonHeaders, body: json)
        response.etag = etag
        return response
    }
}
