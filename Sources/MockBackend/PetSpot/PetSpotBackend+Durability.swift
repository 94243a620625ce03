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

    /// Answers with `answer` once the changes it made are fsynced (acknowledged means durable).
    ///
    /// A failed write is a 500, and the change was undone then, in memory as on disk: a 500 means it did not happen.
    func durable(route: PetSpotRoute, _ answer: () async -> MockResponse) async -> MockResponse {
        guard needsDurableWrite(route) else { return await answer() }
        let (response, failure) = await store.durably(answer)
        guard let failure else { return response }
        configuration.logger.error("could not save a change to the data directory; it was undone", metadata: ["problem": "\(failure)"])
        var failed = errorResponse(PetSpotError(.internalServerError, "INTERNAL_SERVER_ERROR", "Internal server error"),
                                   requestID: store.nextRequestID())
        failed.headers.add(name: "Access-Control-Allow-Origin", value: "*")
        return failed
    }
}
