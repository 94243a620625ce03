import Foundation

/// One endpoint of the API as a contract file describes it.
public struct Contract: Sendable {
    /// Stable identifier, e.g. "createAnnouncement".
    public let id: String
    /// One sentence on what the endpoint is for.
    public let summary: String
    /// Upper-case HTTP method, e.g. "POST".
    public let method: String
    /// The path template, e.g. "/api/v1/announcements/{id}/photos".
    public let pathTemplate: String
    /// The parsed path template.
    public let path: PathTemplate
    /// The template's parameters, in template order.
    public let pathParameters: [ParameterSpec]
    /// What the client sends.
    public let request: RequestSpec
    /// Every answer the endpoint may give, in file order.
    public let responses: [ResponseSpec]
    /// The contract file.
    public let file: URL
    /// The file's JSON with every `$ref` rewritten relative to the contracts folder (used by diff and export).
    public let source: JSONValue

    /// The first response with `status` (and `code`, when given).
    public func response(status: Int, code: String? = nil) -> ResponseSpec? {
        responses.first { $0.status == status && (code == nil || $0.code == code) }
    }

    /// The first 2xx response: what a successful call answers.
    public var successResponse: ResponseSpec? {
        responses.first { (200..<300).contains($0.status) }
    }

    /// Every documented answer with this error `code`.
    public func responses(code: String) -> [ResponseSpec] {
        responses.filter { $0.code == code }
    }
}

/// A contract found for a request, with the values of its path parameters.
public struct ContractMatch: Sendable {
    /// The matching contract.
    public let contract: Contract
    /// Path parameter values by name, percent-decoded, e.g. ["id": "3f1c…"].
    public let parameters: [String: String]

    /// A match of `contract` with these parameter values.
    public init(contract: Contract, parameters: [String: String]) {
        self.contract = contract
        self.parameters = parameters
    }
}
