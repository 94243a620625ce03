import ContractKit
import NIOCore

extension PetSpotBackend {
    /// `read`: the record named by the declared `key` as the API renders it (with its cached weak ETag), else `notFound`.
    func read(_ endpoint: DeclaredEndpoint, parameters: [String: String]) throws -> MockResponse {
        let state = try endpoint.requireState()
        guard let (json, etag) = state.key.flatMap({ parameters[$0] }).flatMap(store.announcementForReading(id:)) else {
            guard let notFound = state.notFound else { throw UndeclaredState(contractID: endpoint.contractID, what: "notFound") }
            throw PetSpotError(notFound, parameters: parameters)
        }
        var response = MockResponse(status: .ok, headers: Self.jsonHeaders, body: json)
        response.etag = etag
        return response
    }
}
