import ContractKit
import ContractModel
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Turns a recipe and the captured state into a concrete URLRequest.
struct RequestBuilder {
    let target: URL
    let timeout: TimeInterval
    /// The admin credential for checks that need it (`verify --admin-token`).
    var adminToken: String?

    /// The request of `recipe`; a `{parameter}` no example names takes the created record's id, else what the server's
    /// answers gave (`state.values`) for `contract`.
    func build(_ recipe: RequestRecipe, state: VerificationState, contract: Contract? = nil) throws(VerificationError) -> URLRequest {
        var path = ""
        for segment in recipe.pathTemplate.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            path += "/"
            guard segment.hasPrefix("{") && segment.hasSuffix("}") else {
                path += segment
                continue
            }
            let name = String(segment.dropFirst().dropLast())
            var value = recipe.pathParameters[name]
            if value == "{unknown}" { value = UUID().uuidString.lowercased() }
            if value == nil && name == "id" { value = state.id }
            if value == nil && name == "file" { value = state.photoFile }
            if value == nil, let contract { value = state.values.value(for: name, of: contract)?.value }
            guard let value else {
                throw VerificationError("{\(name)} in \(recipe.pathTemplate) needs a value no earlier answer gave (no operation of the "
                    + "contracts creates one or lists one, no answer links to it, or its create did not succeed)", unreachable: true)
            }
            path += value.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? value
        }
        guard var components = URLComponents(url: target, resolvingAgainstBaseURL: false) else {
            throw VerificationError("\(target.absoluteString) is not a valid base URL")
        }
        let basePath = components.path.trimmingSuffix("/")
        components.path = basePath + path
        var query = recipe.query
        for parameter in contract?.request.query ?? [] where parameter.required && !query.contains(where: { $0.0 == parameter.name }) {
            // A required query parameter no example gives takes what the server's answers gave.
            if let contract, let found = state.values.value(for: parameter.name, of: contract) { query.append((parameter.name, found.value)) }
        }
        if !query.isEmpty {
            components.queryItems = query.map { URLQueryItem(name: $0.0, value: $0.1) }
        }
        guard let url = components.url else { throw VerificationError("\(target.absoluteString) and \(path) make no valid URL") }
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.httpMethod = recipe.method
        for (name, value) in recipe.headers { request.setValue(value, forHTTPHeaderField: name) }
        try applyCredentials(recipe.credentials, state: state, to: &request)
        try applyBody(recipe.body, state: state, to: &request)
        return request
    }

    private func applyCredentials(_ credentials: RequestRecipe.Credentials, state: VerificationState, to request: inout URLRequest) throws(VerificationError) {
        let pair: (String, String)
        switch credentials {
        case .none: return
        case .adminToken:
            guard let adminToken else { throw VerificationError("needs the admin token; give --admin-token") }
            request.setValue(adminToken, forHTTPHeaderField: "Authorization")
            return
        case .basicCreated, .basicWrongPassword, .basicUnknownAnnouncement:
            guard let id = state.id, let password = state.secret else {
                // No record at all is not the server's fault (nothing could be created); a record without its secret is.
                throw VerificationError("needs the id and the secret (\(state.secretField ?? "x-state.secret")) of a created record, and no earlier check got them",
                                        unreachable: state.id == nil)
            }
            switch credentials {
            case .basicWrongPassword: pair = (id, Self.otherPassword(than: password))
            case .basicUnknownAnnouncement: pair = (UUID().uuidString.lowercased(), password)
            default: pair = (id, password)
            }
            if credentials == .basicUnknownAnnouncement, let url = request.url {
                // The unknown id goes in the path too, so the server cannot find the announcement.
                request.url = URL(string: url.absoluteString.replacingOccurrences(of: id, with: pair.0))
            }
        }
        request.setValue("Basic " + Data("\(pair.0):\(pair.1)".utf8).base64EncodedString(), forHTTPHeaderField: "Authorization")
    }

    private func applyBody(_ body: RequestRecipe.Body, state: VerificationState, to request: inout URLRequest) throws(VerificationError) {
        func setJSON(_ value: JSONValue) {
            request.httpBody = value.data()
            if request.value(forHTTPHeaderField: "Content-Type") == nil {
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            }
        }
        switch body {
        case .none:
            return
        case .json(let value):
            setJSON(state.unique.applied(to: value))
        case .raw(let text):
            request.httpBody = Data(text.utf8)
        case .oversizedJSON(let bytes):
            let padding = String(repeating: "x", count: bytes)
            // Any keys: the body parser refuses the size before anything reads them.
            setJSON(.object(["padding": .string(padding)]))
        case .multipart(let part, let file):
            let boundary = "spotcheck-verify-" + UUID().uuidString
            var data = Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(part)\"; filename=\"\(file.fileName)\"\r\n".utf8)
            data.append(Data("Content-Type: \(file.mimeType)\r\n\r\n".utf8))
            data.append(file.data)
            data.append(Data("\r\n--\(boundary)--\r\n".utf8))
            request.httpBody = data
            request.setValue("multipart/form-data; boundary=\(boundary)", forHTTPHeaderField: "Content-Type")
        case .multipartParts(let parts):
            let boundary = "spotcheck-verify-" + UUID().uuidString
            var data = Data()
            for part in parts {
                if part.isFile {
                    data.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(part.name)\"; filename=\"photo.png\"\r\nContent-Type: image/png\r\n\r\n".utf8))
                    data.append(SampleFile.smallPNG.data)
                } else {
                    data.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(part.name)\"\r\n\r\nsent by spotcheck verify".utf8))
                }
                data.append(Data("\r\n".utf8))
            }
            data.append(Data("--\(boundary)--\r\n".utf8))
            request.httpBody = data
            request.setValue("multipart/form-data; boundary=\(boundary)", forHTTPHeaderField: "Content-Type")
        }
    }

    static func otherPassword(than password: String) -> String {
        password == "111111" ? "222222" : "111111"
    }
}

extension RequestRecipe.Credentials: Equatable {}
