import ContractKit
import ContractModel
import Foundation
import SafeCancellation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends the raw HTTP requests of `http` steps and the engine's own checks, independent of the client under check.
struct RawHTTPClient: Sendable {
    /// How long the engine waits for its own requests.
    let timeout: TimeInterval

    /// Sends `request` to `baseURL`, with `${name}` placeholders replaced from `variables`.
    func send(_ request: HTTPStepRequest, to baseURL: URL, variables: [String: String]) async throws(DriverError) -> HTTPAnswer {
        try await perform(build(request, to: baseURL, variables: variables))
    }

    /// The URLRequest an http step sends, placeholders resolved.
    func build(_ request: HTTPStepRequest, to baseURL: URL, variables: [String: String]) throws(DriverError) -> URLRequest {
        let path = try Self.substitute(request.path, variables)
        guard let url = URL(string: baseURL.absoluteString.trimmingSuffix("/") + path) else {
            throw DriverError("the path \"\(path)\" does not make a valid URL")
        }
        var urlRequest = URLRequest(url: url, timeoutInterval: timeout)
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers {
            urlRequest.setValue(try Self.substitute(value, variables), forHTTPHeaderField: name)
        }
        if let auth = request.basicAuth {
            let credentials = try Self.substitute(auth.user, variables) + ":" + Self.substitute(auth.password, variables)
            urlRequest.setValue("Basic " + Data(credentials.utf8).base64EncodedString(), forHTTPHeaderField: "Authorization")
        }
        switch request.body {
        case .none:
            break
        case .json(let value):
            urlRequest.httpBody = try Self.substitute(value, variables).data()
            if urlRequest.value(forHTTPHeaderField: "Content-Type") == nil {
                urlRequest.setValue("application/json", forHTTPHeaderField: "Content-Type")
            }
        case .text(let text):
            urlRequest.httpBody = Data(try Self.substitute(text, variables).utf8)
        case .multipart(let part, let filename, let photo):
            let boundary = "spotcheck-" + UUID().uuidString
            var body = Data()
            body.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(part)\"; filename=\"\(filename)\"\r\nContent-Type: \(photo.mimeType)\r\n\r\n".utf8))
            body.append(photo.bytes)
            body.append(Data("\r\n--\(boundary)--\r\n".utf8))
            urlRequest.httpBody = body
            urlRequest.setValue("multipart/form-data; boundary=\(boundary)", forHTTPHeaderField: "Content-Type")
        }
        return urlRequest
    }

    /// Sends a prepared request.
    func perform(_ request: URLRequest) async throws(DriverError) -> HTTPAnswer {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        do {
            let (data, response) = try await session.dataCancellingSafely(for: request)
            guard let http = response as? HTTPURLResponse else { throw DriverError("the answer is not HTTP") }
            let headers = http.allHeaderFields.compactMap { (k, v) -> (name: String, value: String)? in
                guard let k = k as? String else { return nil }
                return (name: k, value: "\(v)")
            }
            return HTTPAnswer(status: http.statusCode, headers: headers, body: data)
        } catch let error as DriverError {
            throw error
        } catch {
            throw DriverError("the request \(request.httpMethod ?? "GET") \(request.url?.path ?? "") failed: \(error.localizedDescription)")
        }
    }

    static func substitute(_ text: String, _ variables: [String: String]) throws(DriverError) -> String {
        var result = ""
        var rest = Substring(text)
        while let start = rest.range(of: "${") {
            result += rest[..<start.lowerBound]
            guard let end = rest[start.upperBound...].firstIndex(of: "}") else {
                throw DriverError("unterminated placeholder in \"\(text)\"")
            }
            let name = String(rest[start.upperBound..<end])
            guard let value = variables[name] else {
                throw DriverError("no captured value named \"\(name)\" for \"\(text)\"; capture it in an earlier step")
            }
            result += value
            rest = rest[rest.index(after: end)...]
        }
        return result + rest
    }

    static func substitute(_ value: JSONValue, _ variables: [String: String]) throws(DriverError) -> JSONValue {
        switch value {
        case .string(let s): return .string(try substitute(s, variables))
        case .array(let items):
            var out: [JSONValue] = []
            for item in items { out.append(try substitute(item, variables)) }
            return .array(out)
        case .object(let o):
            var out = JSONObject()
            for (k, v) in o { out[k] = try substitute(v, variables) }
            return .object(out)
        default: return value
        }
    }
}

extension String {
    func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
