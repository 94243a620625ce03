import ContractKit
import ContractModel
import Foundation

/// Requests as a browser sends them: the valid request with an `Origin` header (a page on another site, and one on no
/// site at all), and the CORS preflight before it, asking for the method and the headers the request carries.
extension RequestGenerator {
    /// The origins a page can send from: another site, and a sandboxed or file page (`null`).
    static let origins = ["https://pets.example.org", "null"]

    /// Each origin on the valid request, and a preflight for it. Not for admin contracts: what a browser may do there is
    /// the mock's own protection (docs/security.md), which the real backend does not have.
    func browserCases(_ contract: Contract) -> [GeneratedRequest] {
        guard let valid = validRequest(contract, label: "valid") else { return [] }
        var cases: [GeneratedRequest] = []
        for origin in Self.origins {
            var request = valid
            request.headers["Origin"] = origin
            request.label = "from a browser page at \(origin)"
            cases.append(request)
        }
        var asked = ["content-type"]
        if valid.credentials != .none { asked.insert("authorization", at: 0) }
        var preflight = GeneratedRequest(contractID: nil, method: "OPTIONS", path: valid.path, label: "a CORS preflight for \(contract.method)",
                                         headers: ["Origin": Self.origins[0], "Access-Control-Request-Method": contract.method,
                                                   "Access-Control-Request-Headers": asked.joined(separator: ",")])
        cases.append(preflight)
        preflight.headers["Access-Control-Request-Headers"] = nil
        preflight.label = "a CORS preflight for \(contract.method) asking for no header"
        cases.append(preflight)
        return cases
    }
}
