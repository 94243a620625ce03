import ContractKit
import ContractModel
import Foundation
import MockBackend

/// Generates requests from the contracts: each JSON property alone and in pairs, auth and multipart variants, list
/// parameters, path parameters, and the routes the model serves beyond the contracts (the admin mount, other case,
/// trailing slash). Every rule the contracts state (`StatedRules`) gets its boundary cases, and each case names the
/// rules it exercises for the coverage listing. The systematic cases come first, interleaved by kind so a small budget
/// still touches each; after them a seeded stream of random pairs fills whatever budget is left.
public struct RequestGenerator: Sendable {
    /// The contracts the requests come from.
    public let contracts: ContractSet
    /// Whether DELETE with the admin token may be sent (`--admin-token`); without it only refused DELETEs are.
    public let adminChecks: Bool
    /// The UTC day (`YYYY-MM-DD`) date checks are bounded by: cases straddle it.
    public let today: String
    /// Whether files over `heavyFileBytes` are sent (both sides of a 20 MiB limit take minutes on a debug build, and
    /// three such uploads would outweigh the rest of the default budget); without it those limits show as not exercised.
    public let heavyFiles: Bool
    /// The largest file sent without `heavyFiles`.
    public static let heavyFileBytes = 1 << 20
    /// Each JSON-bodied contract's body model by contract id, built once (random cases draw from them a thousand times).
    let bodies: [(id: String, model: JSONBodyModel)]

    /// A generator for `contracts`; `today` (`YYYY-MM-DD`) defaults to the current UTC day; `heavyFiles` also sends files
    /// over a mebibyte.
    public init(contracts: ContractSet, adminChecks: Bool, today: String? = nil, heavyFiles: Bool = false) {
        self.contracts = contracts
        self.adminChecks = adminChecks
        self.heavyFiles = heavyFiles
        let today = today ?? DayArithmetic.today()
        self.today = today
        bodies = contracts.contracts.compactMap { contract in
            JSONBodyModel(contract: contract, contracts: contracts, today: today).map { (contract.id, $0) }
        }
    }

    /// The body model of `contract`, when it takes a JSON object.
    func body(of contract: Contract) -> JSONBodyModel? {
        bodies.first { $0.id == contract.id }?.model
    }

    /// How many announcements the run creates first (slot 0 is read and uploaded to, slot 1 lends its password, slot 2
    /// holds only the required fields and may be deleted).
    public static let slots = 3

    /// Every rule the contracts state, in file order.
    public var statedRules: [StatedRule] { StatedRules.rules(in: contracts) }

    /// The systematic cases, in the order they are sent.
    public func systematicCases() -> [GeneratedRequest] {
        var kinds: [[GeneratedRequest]] = []
        for contract in contracts.contracts {
            if let body = body(of: contract) {
                kinds.append(body.singleFieldCases())
                kinds.append(body.pairCases())
                kinds.append(body.rootCases())
                kinds.append(body.unknownKeyCases())
            }
            kinds.append(authCases(contract) + multipartCases(contract))
            kinds.append(queryCases(contract) + pathCases(contract))
            kinds.append(routeCases(contract))
            kinds.append(browserCases(contract))
        }
        kinds.append(listCases())
        kinds.append(deleteCases())
        kinds.append(beyondContractCases())
        return Self.interleave(kinds.filter { !$0.isEmpty })
    }

    /// One random pair of property values for a JSON contract, drawn with `random`.
    public func randomCase(using random: inout ModelRandom) -> GeneratedRequest? {
        guard let body = bodies.map(\.model).randomElement(using: &random) else { return nil }
        return body.randomPair(using: &random)
    }

    /// The requests that create the run's own announcements: the richest example for slots 0 and 1 (reads compare every
    /// stored field), the smallest for slot 2 (lists and reads then hold null fields too); nil when no contract creates
    /// with a JSON body.
    func slotRequests() -> [GeneratedRequest]? {
        guard let create = bodies.first?.model, let contract = contracts.contract(id: create.contract.id),
            var rich = validRequest(contract, label: "the run's own record")
        else { return nil }
        let examples = contract.request.examples.compactMap { $0.body?.objectValue }
        if let richest = examples.max(by: { $0.count < $1.count }) { rich.body = .json(.object(richest)) }
        var small = rich
        small.body = .json(.object(create.base))
        return (0..<Self.slots).map { $0 < 2 ? rich : small }
    }

    /// A request for `contract` that its model accepts, with the run's first announcement where one is needed.
    func validRequest(_ contract: Contract, label: String) -> GeneratedRequest? {
        let path = Self.concretePath(contract.pathTemplate)
        var request = GeneratedRequest(contractID: contract.id, method: contract.method, path: path, label: label)
        if let body = body(of: contract) {
            request.body = .json(.object(body.base))
            request.baseBody = body.base
            request.readsBack = true
        }
        if let part = contract.request.parts.first(where: { $0.kind == "file" }) {
            request.body = .multipart([GeneratedPart(name: part.name, fileName: "photo.png", contentType: "image/png", data: SampleUploads.png)])
        }
        switch contract.request.auth?.scheme {
        case "basic": request.credentials = .basic(scheme: "Basic", id: .id(slot: 0), password: .password(slot: 0))
        case "apiKey": return nil
        default: break
        }
        return request
    }

    /// The model serves every announcement route under the admin mount too, case-insensitively, with or without a trailing slash.
    private func routeCases(_ contract: Contract) -> [GeneratedRequest] {
        guard contract.pathTemplate.hasPrefix("/api/v1/"), let valid = validRequest(contract, label: "valid") ?? adminDelete(contract) else { return [] }
        var cases: [GeneratedRequest] = []
        let mounts: [(String, String)] = [
            (valid.path.replacingOccurrences(of: "/api/v1/", with: "/api/admin/v1/"), "under the admin mount"),
            (valid.path.uppercased().replacingOccurrences(of: "{SLOT0}", with: "{slot0}"), "with the path in upper case"),
            (valid.path + "/", "with a trailing slash"),
        ]
        for (path, label) in mounts where !(contract.method == "DELETE" && label != "under the admin mount") {
            var request = valid
            request.contractID = nil
            request.path = path
            request.label = label
            cases.append(request)
        }
        if contract.method == "GET" {
            var head = valid
            head.contractID = nil
            head.method = "HEAD"
            head.label = "HEAD for GET"
            cases.append(head)
        }
        return cases
    }

    private func adminDelete(_ contract: Contract) -> GeneratedRequest? {
        guard adminChecks, contract.request.auth?.scheme == "apiKey" else { return nil }
        // The admin token deletes an unknown id only: the run's own records stay for the other cases.
        let path = contract.pathParameters.reduce(contract.pathTemplate) { $0.replacingOccurrences(of: "{\($1.name)}", with: "{unknown}") }
        return GeneratedRequest(contractID: contract.id, method: contract.method, path: path, label: "valid", credentials: .adminToken)
    }

    /// Routes no contract documents; a server that starts answering one differs from the model.
    private func beyondContractCases() -> [GeneratedRequest] {
        let documented = { (method: String, path: String) in
            contracts.contracts.contains { $0.method == method && $0.path.match(path.replacingOccurrences(of: "{slot0}", with: "x")) != nil }
        }
        return [("POST", "/api/v1/users"), ("POST", "/api/v1/users/login"), ("GET", "/api/v1/users"), ("GET", "/api/v2/announcements"),
         ("PUT", "/api/v1/announcements/{slot0}"), ("PATCH", "/api/v1/announcements/{slot0}"), ("GET", "/")]
            .map { GeneratedRequest(contractID: nil, method: $0.0, path: $0.1, label: "a route no contract documents",
                                    body: $0.0 == "GET" ? .none : .json(["email": "owner@example.com", "password": "secret"])) }
            .filter { !documented($0.method, $0.path) }
    }

    /// `{id}` as the run's first announcement, `{file}` as its PNG.
    static func concretePath(_ template: String) -> String {
        template.replacingOccurrences(of: "{id}", with: "{slot0}").replacingOccurrences(of: "{file}", with: "{slot0}.png")
    }

    private static func interleave(_ kinds: [[GeneratedRequest]]) -> [GeneratedRequest] {
        var result: [GeneratedRequest] = []
        var index = 0
        while result.count < kinds.reduce(0, { $0 + $1.count }) {
            for kind in kinds where index < kind.count { result.append(kind[index]) }
            index += 1
        }
        return result
    }
}
