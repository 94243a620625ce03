import ContractModel
/// Whatever answers requests behind the HTTP server and its fault layer: the PetSpot backend or the forwarding proxy.
public protocol MockResponder: Sendable {
    /// Answers one request.
    func respond(to request: MockRequest) async -> MockResponse

    /// The answer when it is ready without waiting, so the server can send it from its event loop; nil means ask `respond(to:)`.
    ///
    /// A task hop per request costs more than answering most requests, so responders that can answer at once should.
    func immediateResponse(to request: MockRequest) -> MockResponse?

    /// The most body bytes the server buffers for a request with this head before answering `respondToOversizedBody`.
    func bodyLimit(for head: MockRequest) -> Int

    /// The answer when the body exceeds `bodyLimit(for:)`; the server then closes the connection instead of reading on.
    func respondToOversizedBody(_ head: MockRequest) async -> MockResponse
}

extension MockResponder {
    /// Never ready at once: every request goes through `respond(to:)`.
    public func immediateResponse(to request: MockRequest) -> MockResponse? { nil }

    /// 25 MiB: room for the 20 MiB photo limit plus multipart framing.
    public func bodyLimit(for head: MockRequest) -> Int { 25 * 1024 * 1024 }

    public func respondToOversizedBody(_ head: MockRequest) async -> MockResponse {
        MockResponse(status: .payloadTooLarge)
    }
}
