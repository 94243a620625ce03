import ContractKit
import Foundation

/// Checks an answer of the mock against its contract with the shared `ExchangeValidator` (answer side only): a documented
/// status (and error code), the required headers, a body that fits the schema, the error envelope.
///
/// A mock that breaks its own contract would teach clients the wrong thing, so in debug builds every answer goes through this.
struct ResponseContractCheck: Sendable {
    let contracts: ContractSet
    private let validator: ExchangeValidator
    /// The backend's clock: the time its made-up timestamps are checked against (the mock sends no Date header).
    private let now: @Sendable () -> Date

    init(contracts: ContractSet, multipart: any MultipartScanner, now: @escaping @Sendable () -> Date = { Date() }) {
        self.contracts = contracts
        self.now = now
        // The mock reproduces listed defects on demand (--with-known-defects); those answers are the point, not a violation.
        self.validator = ExchangeValidator(contracts: contracts, knownDefects: KnownDefectList(contracts.knownDefects, contracts: contracts, multipart: multipart))
    }

    /// Every way `response` breaks the contract `contractID`, one sentence each; for answers outside any contract only the error envelope is checked.
    func problems(contractID: String?, response: ModelAnswer, request: ModelRequest? = nil) -> [String] {
        let exchange = Exchange(method: request?.method ?? "GET", path: request?.path ?? "/",
                                requestHeaders: request.map { HeaderField.list($0.headers) } ?? [],
                                requestBody: request.map { Array($0.body) } ?? [], status: Int(response.status.code),
                                responseHeaders: HeaderField.list(response.headers),
                                responseBody: response.body,
                                answeredAt: now())
        return validator.validateResponse(exchange, contractID: contractID).filter { $0.knownDefect == nil }.map { v in
            "\(v.contract ?? "(no contract)") \(v.pointer): expected \(v.expected), got \(v.got)"
        }
    }

    /// Whether a sent Content-Type (parameters ignored) fits a documented one such as `image/*`.
    static func mediaType(_ sent: String, matches documented: String) -> Bool {
        let (a, b) = (Exchange.mediaType(sent), Exchange.mediaType(documented))
        if b.hasSuffix("/*") { return a.hasPrefix(String(b.dropLast())) }
        return a == b
    }
}
