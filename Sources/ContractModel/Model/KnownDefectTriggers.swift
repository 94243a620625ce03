import ContractKit

/// Names the known-defect trigger a request sets off, the way the mock backend sees it; shared by the mock and `run --target`.
public enum KnownDefectTriggers {
    /// The contract and trigger of a request that sets off a listable server defect, or nil for an ordinary request.
    ///
    /// The route comes from `contracts`; `multipart` reads upload bodies (default: the bundled contracts folder): a JSON body parser failure on an
    /// endpoint that takes JSON, a multipart mistake on one that takes parts.
    public static func trigger(method: String, path: String, headers: [(name: String, value: String)], body: [UInt8],
                               contracts: ContractSet? = nil, multipart: any MultipartScanner) -> (contractID: String, trigger: KnownDefect.Trigger)? {
        guard let contracts = contracts ?? bundled,
            case .endpoint(_, let contractID, _) = contracts.routes.resolve(method: method.uppercased(), path: path),
            let contract = contracts.contract(id: contractID)
        else { return nil }
        let request = ModelRequest(method: method.uppercased(), uri: path, headers: HeaderFields(headers), body: body)
        if contract.request.body != nil {
            if case .failure(let trigger, _) = JSONBodyParser.parse(request, parser: contracts.service.bodyParser) { return (contractID, trigger) }
        } else if !contract.request.parts.isEmpty {
            // The file part the contract's x-state reads (else its first file part).
            let part = contracts.state.declarations[contractID]?.file?.part ?? contract.request.parts.first { $0.kind == "file" }?.name ?? ""
            switch multipart.scan(field: part, in: body, contentType: request.headers.first(name: "Content-Type")) {
            case .otherFilePart: return (contractID, .multipartOtherFilePart)
            case .malformed: return (contractID, .multipartMalformed)
            case .file, .noFile: break
            }
        }
        return nil
    }

    /// The repository's own contracts, loaded once, for callers that have no contracts at hand.
    private static let bundled: ContractSet? = try? ContractSet.load(from: ContractSet.bundledDirectory)
}
