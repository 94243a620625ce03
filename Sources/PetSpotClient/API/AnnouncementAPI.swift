import Foundation
import SafeCancellation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The PetSpot announcement endpoints over URLSession, decoded into domain types with typed errors.
public final class AnnouncementAPI: Sendable {
    /// The origin (and optional path prefix) every endpoint path is appended to.
    public let baseURL: URL
    /// The timeouts applied to each request.
    public let configuration: Configuration
    private let session: URLSession

    /// Creates an API client with its own ephemeral session (no cookies, no cache).
    public init(baseURL: URL, configuration: Configuration = Configuration()) {
        self.baseURL = baseURL
        self.configuration = configuration
        let sessionConfiguration = URLSessionConfiguration.ephemeral
        sessionConfiguration.timeoutIntervalForRequest = configuration.requestTimeout
        sessionConfiguration.timeoutIntervalForResource = configuration.resourceTimeout
        sessionConfiguration.httpShouldSetCookies = false
        sessionConfiguration.urlCache = nil
        sessionConfiguration.requestCachePolicy = .reloadIgnoringLocalCacheData
        // Inert until `setDeviceOffline(true)`: then requests fail with -1009 as on a phone without a network.
        sessionConfiguration.protocolClasses = [SimulatedOffline.self] + (sessionConfiguration.protocolClasses ?? [])
        session = URLSession(configuration: sessionConfiguration)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// Simulates the device losing (`true`) or regaining its network for this API's backend (see `SimulatedOffline`).
    public func setDeviceOffline(_ offline: Bool) {
        SimulatedOffline.setOffline(offline, for: baseURL)
    }

    /// Step 1: creates an announcement; succeeds only on 201 with an `id` and `managementPassword`.
    public func createAnnouncement(_ announcement: NewAnnouncement) async throws(AnnouncementAPIError) -> CreatedAnnouncement {
        var request = makeRequest(path: ["api", "v1", "announcements"], method: "POST")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            request.httpBody = try encoder.encode(announcement)
        } catch {
            // Only a non-finite coordinate can fail to encode; the backend would reject it as a bad number.
            throw .undecodableBody(UndecodableBody(operation: .createAnnouncement, status: 0, reason: "the request body cannot be encoded as JSON: \(error)", bodyExcerpt: ""))
        }
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let (status, data) = try await send(request, operation: .createAnnouncement, expecting: 201)
        return try decode(CreatedAnnouncement.self, from: data, status: status, operation: .createAnnouncement)
    }

    /// Step 2: uploads the photo as the multipart part `photo`, authorised with Basic `id:managementPassword`.
    public func uploadPhoto(_ photo: PhotoAttachment, announcementID: String, managementPassword: String) async throws(AnnouncementAPIError) {
        var request = makeRequest(path: ["api", "v1", "announcements", announcementID, "photos"], method: "POST",
                                  pastesSegments: MutantAPI.pastesIDs(.uploadPhoto))
        let form = MultipartFormData(fileField: "photo", attachment: photo)
        request.httpBody = form.body
        request.setValue(form.contentType, forHTTPHeaderField: "Content-Type")
        request.setValue(Self.basicAuthorization(user: announcementID, password: managementPassword), forHTTPHeaderField: "Authorization")
        let (status, data) = try await send(request, operation: .uploadPhoto, expecting: 201)
        try MutantAPI.checkUploadBody(data, status: status)
    }

    /// Reads one announcement (never includes the management password).
    public func announcement(id: String) async throws(AnnouncementAPIError) -> Announcement {
        let request = makeRequest(path: ["api", "v1", "announcements", id], method: "GET", pastesSegments: MutantAPI.pastesIDs(.getAnnouncement))
        let (status, data) = try await send(request, operation: .getAnnouncement, expecting: 200)
        try MutantAPI.checkAnnouncementBody(data, status: status)
        return try decode(Announcement.self, from: data, status: status, operation: .getAnnouncement)
    }

    /// Lists announcements that have a photo, optionally within `rangeKm` of a point.
    public func announcements(near location: (latitude: Double, longitude: Double)? = nil, rangeKm: Int? = nil) async throws(AnnouncementAPIError) -> [Announcement] {
        let (location, rangeKm) = MutantAPI.listQuery(location, rangeKm)
        var query: [URLQueryItem] = []
        if let location {
            query.append(URLQueryItem(name: "lat", value: Self.decimal(location.latitude)))
            query.append(URLQueryItem(name: "lng", value: Self.decimal(location.longitude)))
        }
        if let rangeKm {
            query.append(URLQueryItem(name: "range", value: String(rangeKm)))
        }
        let request = makeRequest(path: ["api", "v1", "announcements"], method: "GET", query: query)
        let (status, data) = try await send(request, operation: .listAnnouncements, expecting: 200)
        return try decode(AnnouncementList.self, from: data, status: status, operation: .listAnnouncements).data
    }

    /// Resolves a photo path such as `/images/<id>.jpeg` against the base URL.
    public func photoURL(for photoPath: String) -> URL? {
        if let absolute = URL(string: photoPath), absolute.scheme != nil { return absolute }
        return URL(string: photoPath, relativeTo: baseURL)?.absoluteURL
    }

    /// A coordinate as plain decimal text: `String(Double)` would write tiny values as `1e-05`,
    /// which a query parser expecting a number may reject.
    static func decimal(_ value: Double) -> String {
        guard value.isFinite else { return String(value) }
        var text = String(format: "%.7f", value)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }

    /// The `Authorization` header value for Basic `user:password`.
    static func basicAuthorization(user: String, password: String) -> String {
        "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
    }

    func makeRequest(path segments: [String], method: String, query: [URLQueryItem] = [], pastesSegments: Bool = false) -> URLRequest {
        // Segments are percent-encoded one by one so an id can never add a path level or a query.
        let allowed = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "/?#;"))
        let encoded = segments.map { $0.addingPercentEncoding(withAllowedCharacters: allowed) ?? "" }
        var url = baseURL
        if pastesSegments {
            // A benchmark mutant (MutantAPI.pastesIDs): the path pasted as text, as a hand-built URL string would be.
            url = URL(string: baseURL.absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/")) + "/" + segments.joined(separator: "/")) ?? baseURL
        } else if var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: true) {
            var basePath = components.percentEncodedPath
            while basePath.hasSuffix("/") { basePath.removeLast() }
            components.percentEncodedPath = basePath + "/" + encoded.joined(separator: "/")
            components.queryItems = query.isEmpty ? nil : query
            components.fragment = nil
            url = components.url ?? baseURL
        }
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: configuration.requestTimeout)
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        return request
    }

    private func send(_ request: URLRequest, operation: AnnouncementOperation, expecting expectedStatus: Int) async throws(AnnouncementAPIError) -> (Int, Data) {
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.dataCancellingSafely(for: request)
        } catch let error as URLError {
            throw .transport(operation: operation, error: error)
        } catch {
            throw .transport(operation: operation, error: Self.urlError(from: error))
        }
        guard let http = response as? HTTPURLResponse else {
            throw .transport(operation: operation, error: URLError(.badServerResponse))
        }
        guard http.statusCode == expectedStatus else {
            let envelope = try? JSONDecoder().decode(APIErrorEnvelope.self, from: data)
            throw .http(HTTPStatusFailure(operation: operation, status: http.statusCode, expectedStatus: expectedStatus, envelope: envelope, bodyExcerpt: BodyExcerpt.of(data)))
        }
        return (http.statusCode, data)
    }

    /// URLSession may report an `NSError` in the URL error domain (or, rarely, something else);
    /// both become a `URLError` so the error mapping sees one type.
    static func urlError(from error: any Error) -> URLError {
        let nsError = error as NSError
        if nsError.domain == NSURLErrorDomain {
            return URLError(urlErrorCode(nsError.code) ?? .unknown, userInfo: nsError.userInfo)
        }
        return URLError(.unknown, userInfo: [NSUnderlyingErrorKey: nsError, NSLocalizedDescriptionKey: nsError.localizedDescription])
    }

    private func decode<Value: Decodable>(_ type: Value.Type, from data: Data, status: Int, operation: AnnouncementOperation) throws(AnnouncementAPIError) -> Value {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch {
            throw .undecodableBody(UndecodableBody(operation: operation, status: status, reason: Self.describe(error), bodyExcerpt: BodyExcerpt.of(data),
                                                   codingPath: Self.codingPath(of: error)))
        }
    }

    /// Where a `DecodingError` happened as a JSON pointer (a missing key's own name included), `nil` for other errors.
    static func codingPath(of error: any Error) -> String? {
        guard let decodingError = error as? DecodingError else { return nil }
        let keys: [any CodingKey]
        switch decodingError {
        case .keyNotFound(let key, let context): keys = context.codingPath + [key]
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context): keys = context.codingPath
        @unknown default: return nil
        }
        return "/" + keys.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: "/")
    }

    static func describe(_ error: any Error) -> String {
        guard let decodingError = error as? DecodingError else { return "\(error)" }
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
            return "/" + keys.joined(separator: "/")
        }
        switch decodingError {
        case .keyNotFound(let key, let context):
            return "missing key \"\(key.stringValue)\" at \(path(context))"
        case .typeMismatch(let type, let context):
            return "expected \(type) at \(path(context)): \(context.debugDescription)"
        case .valueNotFound(let type, let context):
            return "expected \(type) but found null at \(path(context))"
        case .dataCorrupted(let context):
            return "not valid JSON at \(path(context)): \(context.debugDescription)"
        @unknown default:
            return "\(decodingError)"
        }
    }
}
