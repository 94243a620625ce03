import NIOCore

extension PetSpotBackend {
    /// Whether answering this route must wait for the disk: a change to a persistent store.
    func needsDurableWrite(_ route: PetSpotRoute) -> Bool {
        guard store.persistence != nil else { return false }
        switch route {
        case .createAnnouncement, .uploadPhoto, .deleteAnnouncement: return true
        default: return false
        }
    }

    /// Holds a successful change's answer until the change is fsynced (acknowledged means durable); a failed write is a 500.
    func durable(_ response: MockResponse, route: PetSpotRoute) async -> MockResponse {
        guard needsDurableWrite(route), (200..<300).contains(response.status.code) else { return response }
        do {
            try await store.waitUntilDurable()
            return response
        } catch {
            configuration.logger.error("could not save a change to the data directory", metadata: ["problem": "\(error)"])
            var failed = errorResponse(PetSpotError(.internalServerError, "INTERNAL_SERVER_ERROR", "Internal server error"),
                                            requestID: store.nextRequestID())
            failed.headers.add(name: "Access-Control-Allow-Origin", value: "*")
            return failed
        }
    }
}
