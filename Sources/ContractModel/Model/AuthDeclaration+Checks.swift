import ContractKit

extension AuthDeclaration {
    /// Runs the Basic checks in order; the credentials, or the declared answer of the first check that fails.
    func basicCredentials(in headers: HeaderFields, parameters: [String: String]) throws -> BasicCredentials {
        switch BasicCredentials.parse(authorization: headers.first(name: header)) {
        case .success(let credentials): return credentials
        case .failure(let problem): throw failure(problem.check, parameters)
        }
    }

    /// Checks a token scheme's whole header value against `expected` (nil: no value can match).
    func checkToken(in headers: HeaderFields, expected: String?, parameters: [String: String]) throws {
        let given = headers.first(name: header)
        guard let given, !(emptyIsMissing && given.isEmpty) else { throw failure(.missing, parameters) }
        guard let expected, BasicCredentials.constantTimeEquals(expected, given) else { throw failure(.mismatch, parameters) }
    }

    private func failure(_ check: Check, _ parameters: [String: String]) -> any Error {
        guard let answer = answer(check) else { return UndeclaredState(contractID: "", what: "request.auth.x-errors/\(check.rawValue)") }
        return ModelError(answer, parameters: parameters)
    }
}

extension BasicCredentials.Problem {
    /// The declared auth check this problem fails.
    var check: AuthDeclaration.Check {
        switch self {
        case .missingHeader: return .missing
        case .notBasicScheme: return .format
        case .invalidBase64: return .base64
        case .noColon: return .noColon
        case .emptyUserOrPassword: return .empty
        }
    }
}
