import ContractKit
import Foundation
import MockBackend

/// Generates requests from the contracts: each JSON property alone and in pairs, auth and multipart variants, list
/// parameters, path parameters, and the routes the model serves beyond the contracts (the admin mount, other case,
/// trailing slash). The systematic cases come first, interleaved by kind so a small budget still touches each; after
/// them a seeded stream of random pairs fills whatever budget is left.
public struct RequestGenerator: Sendable {
    /// The contracts the requests come from.
    public let contracts: ContractSet
    /// Whether DELETE with the admin token may be sent (`--admin-token`); without it only refused DELETEs are.
    public let adminChecks: Bool

    /// A generator for `contracts`.
    public init(contracts: ContractSet, adminChecks: Bool) {
        self.contracts = contracts
        self.adminChecks = adminChecks
    }

    /// How many announcements the run creates first (slot 0 is read and uploaded to, slot 1 lends its password, slot 2 may be deleted).
    public static let slots = 3

    /// The systematic cases, in the order they are sent.
    public func systematicCases() -> [GeneratedRequest] {
        var kinds: [[GeneratedRequest]] = []
        for contract in contracts.contracts {
            if let body = JSONBodyModel(contract: contract, contracts: contracts) {
                kinds.append(body.singleFieldCases())
                kinds.append(body.pairCases())
                kinds.append(body.rootCases())
            }
            kinds.append(authCases(contract) + multipartCases(contract))
            kinds.append(queryCases(contract) + pathCases(contract))
            kinds.append(routeCases(contract))
        }
        kinds.append(beyondContractCases())
        return Self.interleave(kinds.filter { !$0.isEmpty })
    }

    /// One random pair of property values for a JSON contract, drawn with `random`.
    public func randomCase(using random: inout PetSpotRandom) -> GeneratedRequest? {
        let bodies = contracts.contracts.compactMap { JSONBodyModel(contract: $0, contracts: contracts) }
        guard let body = bodies.randomElement(using: &random) else { return nil }
        return body.randomPair(using: &random)
    }

    /// A request for `contract` that its model accepts, with the run's first announcement where one is needed.
    func validRequest(_ contract: Contract, label: String) -> GeneratedRequest? {
        let path = Self.concretePath(contract.pathTemplate)
        var request = GeneratedRequest(contractID: contract.id, method: contract.method, path: path, label: label)
        if let body = JSONBodyModel(contract: contract, contracts: contracts) {
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

    private func authCases(_ contract: Contract) -> [GeneratedRequest] {
        guard let auth = contract.request.auth else { return [] }
        if auth.scheme == "apiKey" {
            var cases: [GeneratedRequest] = []
            let path = contract.pathTemplate.replacingOccurrences(of: "{id}", with: "{slot2}")
            for (value, label) in [(nil, "no Authorization"), ("wrong-token", "a wrong token"), ("Basic dXNlcjpwYXNz", "Basic credentials"),
                                   ("", "an empty Authorization")] as [(String?, String)] {
                cases.append(GeneratedRequest(contractID: contract.id, method: contract.method, path: path, label: label,
                                              credentials: value.map { .literal($0) } ?? .none))
            }
            if adminChecks {
                cases.append(GeneratedRequest(contractID: contract.id, method: contract.method, path: "/api/v1/announcements/{unknown}",
                                              label: "the admin token for an unknown id", credentials: .adminToken))
                cases.append(GeneratedRequest(contractID: contract.id, method: contract.method, path: path,
                                              label: "the admin token", credentials: .adminToken))
                cases.append(GeneratedRequest(contractID: "getAnnouncement", method: "GET", path: "/api/v1/announcements/{slot2}",
                                              label: "a read after the delete"))
            }
            return cases
        }
        guard let valid = validRequest(contract, label: "valid") else { return [] }
        func with(_ label: String, _ credentials: GeneratedRequest.Credentials, path: String? = nil) -> GeneratedRequest {
            var request = valid
            request.label = label
            request.credentials = credentials
            if let path { request.path = path }
            return request
        }
        let own = GeneratedRequest.Credentials.basic(scheme: "Basic", id: .id(slot: 0), password: .password(slot: 0))
        return [
            with("its own id and password", own),
            with("no Authorization", .none),
            with("scheme in lower case", .basic(scheme: "basic", id: .id(slot: 0), password: .password(slot: 0))),
            with("scheme in upper case", .basic(scheme: "BASIC", id: .id(slot: 0), password: .password(slot: 0))),
            with("Bearer scheme", .basic(scheme: "Bearer", id: .id(slot: 0), password: .password(slot: 0))),
            with("the scheme alone", .literal("Basic")),
            with("credentials not base64", .literal("Basic not*base64!")),
            with("no colon", .basic(scheme: "Basic", id: .id(slot: 0), password: nil)),
            with("an empty password", .basic(scheme: "Basic", id: .id(slot: 0), password: .text(""))),
            with("a wrong password", .basic(scheme: "Basic", id: .id(slot: 0), password: .text("000000"))),
            with("another announcement's password", .basic(scheme: "Basic", id: .id(slot: 0), password: .password(slot: 1))),
            with("another announcement's id with its own password", .basic(scheme: "Basic", id: .id(slot: 1), password: .password(slot: 0))),
            with("an unknown announcement", own, path: Self.concretePath(contract.pathTemplate).replacingOccurrences(of: "{slot0}", with: "{unknown}")),
        ]
    }

    private func multipartCases(_ contract: Contract) -> [GeneratedRequest] {
        guard let part = contract.request.parts.first(where: { $0.kind == "file" }), let valid = validRequest(contract, label: "valid") else { return [] }
        func with(_ label: String, _ body: GeneratedRequest.Body, headers: [String: String] = [:]) -> GeneratedRequest {
            var request = valid
            request.label = label
            request.body = body
            request.headers = headers
            return request
        }
        func file(_ name: String, _ data: Data, fileName: String = "photo.png", type: String? = "image/png") -> GeneratedPart {
            GeneratedPart(name: name, fileName: fileName, contentType: type, data: data)
        }
        var cases = SampleUploads.images.map { with("a \($0.label) image", .multipart([file(part.name, $0.data, fileName: $0.fileName, type: $0.contentType)])) }
        cases += [
            with("no part", .multipart([])),
            with("only a text field", .multipart([GeneratedPart(name: "note", fileName: nil, contentType: nil, data: Data("hello".utf8))])),
            with("the file under another part name", .multipart([file("file", SampleUploads.png)])),
            with("two files", .multipart([file(part.name, SampleUploads.png), file(part.name, SampleUploads.png)])),
            with("a text file", .multipart([file(part.name, SampleUploads.text, fileName: "notes.txt", type: "text/plain")])),
            with("a PNG declared as text", .multipart([file(part.name, SampleUploads.png, type: "text/plain")])),
            with("an empty file", .multipart([file(part.name, Data())])),
            with("a file with no name", .multipart([GeneratedPart(name: part.name, fileName: "", contentType: "image/png", data: SampleUploads.png)])),
            with("a JSON body", .raw("{\"photo\":\"x\"}", contentType: "application/json")),
            with("no body", .none),
            with("multipart without a boundary", .raw("--x\r\n", contentType: "multipart/form-data")),
        ]
        return cases
    }

    private func queryCases(_ contract: Contract) -> [GeneratedRequest] {
        guard !contract.request.query.isEmpty else { return [] }
        let path = Self.concretePath(contract.pathTemplate)
        func with(_ items: [QueryItem]) -> GeneratedRequest {
            let label = items.isEmpty ? "no parameters" : items.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
            return GeneratedRequest(contractID: contract.id, method: contract.method, path: path, label: label, query: items)
        }
        var cases = [with([])]
        let names = contract.request.query.map(\.name)
        let values = ["", "0", "1", "52.2297", "-90", "90", "90.5", "-180", "180", "180.5", "abc", "12abc", "1e2", " 5", "Infinity", "0x10"]
        for parameter in contract.request.query {
            for value in values { cases.append(with([QueryItem(parameter.name, value)])) }
            cases.append(with([QueryItem(parameter.name, "1"), QueryItem(parameter.name, "2")]))
        }
        // The location parameters together: the list near the run's own announcements, and bounds on both sides.
        if names.count >= 2 {
            let (first, second) = (names[0], names[1])
            for (a, b) in [("52.2297", "21.0122"), ("52.2297", ""), ("", "21.0122"), ("91", "21"), ("52", "181"), ("abc", "21"), ("-90", "-180")] {
                cases.append(with([QueryItem(first, a), QueryItem(second, b)]))
                for third in names.dropFirst(2) {
                    for range in ["1", "0", "-1", "1.5", "abc", "20000", ""] {
                        cases.append(with([QueryItem(first, a), QueryItem(second, b), QueryItem(third, range)]))
                    }
                }
            }
            cases.append(with([QueryItem(first.uppercased(), "52.2297"), QueryItem(second.uppercased(), "21.0122")]))
            cases.append(with([QueryItem("unknown", "1")]))
        }
        return cases
    }

    private func pathCases(_ contract: Contract) -> [GeneratedRequest] {
        guard contract.method == "GET", contract.pathTemplate.contains("{") else { return [] }
        if contract.pathTemplate.contains("{file}") {
            // The photo the run uploads first, in lockstep, so both sides hold the same file under the same name.
            let upload = contracts.contracts.first { !$0.request.parts.isEmpty }.flatMap { validRequest($0, label: "a PNG photo before reading images") }
            let paths = ["/images/{slot0}.png", "/images/{slot0}.jpeg", "/images/{slot0}", "/images/{unknown}.png", "/images/..%2Fpackage.json", "/images/"]
            return (upload.map { [$0] } ?? []) + paths.map {
                GeneratedRequest(contractID: contract.id, method: "GET", path: $0, label: $0.replacingOccurrences(of: "/images/", with: "file "))
            }
        }
        let template = contract.pathTemplate
        return [("{slot0}", "the run's announcement"), ("{slot1}", "another announcement"), ("{unknown}", "an unknown id"),
                ("not-a-uuid", "an id that is not a UUID"), ("%20", "a blank id")]
            .map { GeneratedRequest(contractID: contract.id, method: "GET", path: template.replacingOccurrences(of: "{id}", with: $0.0), label: $0.1) }
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
        // The admin mount deletes the unknown id only: the run's own announcements stay for the other cases.
        return GeneratedRequest(contractID: contract.id, method: contract.method, path: "/api/v1/announcements/{unknown}", label: "valid",
                                credentials: .adminToken)
    }

    /// Routes no contract documents; a server that starts answering one differs from the model.
    private func beyondContractCases() -> [GeneratedRequest] {
        [("POST", "/api/v1/users"), ("POST", "/api/v1/users/login"), ("GET", "/api/v1/users"), ("GET", "/api/v2/announcements"),
         ("PUT", "/api/v1/announcements/{slot0}"), ("PATCH", "/api/v1/announcements/{slot0}"), ("GET", "/")]
            .map { GeneratedRequest(contractID: nil, method: $0.0, path: $0.1, label: "a route no contract documents",
                                    body: $0.0 == "GET" ? .none : .json(["email": "owner@example.com", "password": "secret"])) }
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
