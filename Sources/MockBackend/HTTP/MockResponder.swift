/// Whatever answers requests behind the HTTP server and its fault layer: the PetSpot backend or the forwarding proxy.
public protocol MockResponder: Sendable {
    /// Answers one request.
    func respond(to request: MockRequest) async -> MockResponse
}
