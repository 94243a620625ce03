
extension ModelExecutor {
    /// Whether answering this target must wait for the disk: a change to a persistent store.
    func needsDurableWrite(_ target: Target) -> Bool {
        guard store.persistence != nil, case .endpoint(let endpoint, _) = target else { return false }
        switch endpoint.action {
        case .create, .attachFile, .delete: return true
        default: return false
        }
    }

    /// Answers with `answer` once the changes it made are fsynced (acknowledged means durable).
    ///
    /// A failed write is the service file's internal error, and the change was undone then, in memory as on disk: it did not happen.
    func durable(_ target: Target, _ answer: () async -> ModelAnswer) async -> ModelAnswer {
        guard needsDurableWrite(target) else { return await answer() }
        let (response, failure) = await store.durably(answer)
        guard let failure else { return response }
        let requestID = nextRequestID()
        var failed = errorResponse(ModelError.internalError, requestID: requestID)
        failed.storeFailure = "\(failure)"
        for header in service.headers { failed.headers.add(name: header.name, value: header.value) }
        if let requestID, let header = service.requestID?.header { failed.headers.add(name: header, value: requestID) }
        return failed
    }
}
