import ContractKit
import ContractModel
import Foundation
import MockBackend
import ScenarioEngine

/// One server a generated request goes to (the target, or an embedded model), with the announcements the run holds there.
struct ExplorationSide: Sendable {
    /// Where a side's requests go: a server over HTTP, or the model in-process.
    enum Transport: Sendable {
        /// A server at this base URL, e.g. `http://127.0.0.1:3000`.
        case http(URL)
        /// The model, asked with a function call (`InProcessServer`).
        case inProcess(InProcessServer)
        /// A server at this base URL whose every answer is kept in the recording (`verify --record-baseline`).
        case recording(URL, BaselineRecording)
        /// A recorded server: each answer comes from the recording (`verify --baseline FILE`).
        case replaying(BaselineRecording)

        /// Whether the side is a server reached over HTTP.
        var isHTTP: Bool {
            if case .http = self { return true }
            return false
        }

        /// Whether the side is the model in-process.
        var isInProcess: Bool {
            if case .inProcess = self { return true }
            return false
        }
    }

    /// How reports name the side: `server`, `model` or `model with known defects`.
    let name: String
    /// Where its requests go.
    let transport: Transport
    /// The ids of the run's own announcements on this side, by slot.
    var ids: [String] = []
    /// Their management passwords, by slot.
    var passwords: [String] = []

    /// What goes on the wire for `request` here: the ids and passwords of this side's slots, the same fresh values elsewhere.
    func render(_ request: GeneratedRequest, fresh: FreshValues, adminToken: String?) -> RenderedRequest {
        var path = request.path.replacingOccurrences(of: "{unknown}", with: fresh.unknownID)
        for (slot, id) in ids.enumerated() { path = path.replacingOccurrences(of: "{slot\(slot)}", with: id) }
        var headers = request.headers
        switch request.credentials {
        case .none: break
        case .literal(let value): headers["Authorization"] = value
        case .adminToken: headers["Authorization"] = adminToken ?? ""
        case .basic(let scheme, let id, let password):
            let pair = value(id) + (password.map { ":" + value($0) } ?? "")
            headers["Authorization"] = "\(scheme) " + Data(pair.utf8).base64EncodedString()
        }
        var body = Data()
        // The values this case made fresh, in a fixed order: what a recorded baseline masks (`BaselineRecording`).
        var made: [String] = (request.path.contains("{unknown}") ? [fresh.unknownID] : []) + request.freshValues
        switch request.body {
        case .none: break
        case .json(let json):
            let sent = fresh.withRunTag(request.keepsUniqueValues ? json : fresh.withUniqueValues(json, contractID: request.contractID))
            if !request.keepsUniqueValues {
                // Every unique field's value counts, changed or not: a stand-in may equal its example in one run only.
                let unique = request.contractID.map { fresh.fieldsByContract[$0] ?? [] } ?? fresh.unique.fields.sorted()
                made += unique.compactMap { sent[$0]?.stringValue }
            }
            if let key = fresh.keyField, let value = sent[key]?.stringValue, value != json[key]?.stringValue { made.append(value) }
            body = sent.data()
            if headers["Content-Type"] == nil { headers["Content-Type"] = "application/json" }
        case .raw(let text, let contentType):
            let tagged = fresh.withRunTag(text: text)
            if tagged != text, let before = try? JSONValue(parsing: Array(text.utf8), loneSurrogates: .replace),
               let after = try? JSONValue(parsing: Array(tagged.utf8), loneSurrogates: .replace) {
                made += Self.changedStrings(from: before, to: after)
            }
            body = Data(tagged.utf8)
            if let contentType { headers["Content-Type"] = contentType }
        case .multipart(let parts):
            let boundary = "spotcheck-explore-\(fresh.boundary)"
            made.append(boundary)
            for part in parts {
                var head = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(part.name)\""
                if let fileName = part.fileName { head += "; filename=\"\(fileName)\"" }
                if let type = part.contentType { head += "\r\nContent-Type: \(type)" }
                body.append(Data((head + "\r\n\r\n").utf8))
                body.append(part.data)
                body.append(Data("\r\n".utf8))
            }
            body.append(Data("--\(boundary)--\r\n".utf8))
            if headers["Content-Type"] == nil { headers["Content-Type"] = "multipart/form-data; boundary=\(boundary)" }
        }
        return RenderedRequest(method: request.method, path: path, query: request.query, headers: headers, body: body, fresh: made,
                               carried: request.carriedValues)
    }

    /// The top-level texts of `sent` that differ from `generated`'s, by sorted key: the fresh values put in.
    static func changedStrings(from generated: JSONValue, to sent: JSONValue) -> [String] {
        guard let before = generated.objectValue, let after = sent.objectValue else { return [] }
        return after.keys.sorted().compactMap { key in
            guard let value = after[key]?.stringValue, value != before[key]?.stringValue else { return nil }
            return value
        }
    }

    /// The text an identity stands for on this side.
    func value(_ identity: GeneratedRequest.IdentityValue) -> String {
        switch identity {
        case .text(let text): return text
        case .id(let slot): return slot < ids.count ? ids[slot] : "no-such-slot"
        case .password(let slot): return slot < passwords.count ? passwords[slot] : "000000"
        case .changed(let base, .upperCased): return value(base).uppercased()
        case .changed(let base, .padded): return " \(value(base)) "
        case .changed(let base, .extended(let tail)): return value(base) + tail
        }
    }

    /// Sends `rendered` and returns the whole answer.
    func send(_ rendered: RenderedRequest, client: ExactHTTPClient) async throws(ProxyError) -> ExactHTTPClient.Answer {
        switch transport {
        case .http(let base):
            return try await client.send(method: rendered.method, url: rendered.url(base: base), headers: rendered.headers, body: rendered.body)
        case .inProcess(let model):
            return await model.send(method: rendered.method, url: rendered.url(base: Self.inProcessBase), headers: rendered.headers, body: rendered.body)
        case .recording(let base, let recording):
            let answer = try await client.send(method: rendered.method, url: rendered.url(base: base), headers: rendered.headers, body: rendered.body)
            await recording.record(rendered, answer)
            return answer
        case .replaying(let recording):
            guard let answer = await recording.answer(rendered) else {
                throw ProxyError.upstreamFailed(target: Self.recordingTarget, reason: "it holds no answer to \(rendered.display.prefix(120))")
            }
            return answer
        }
    }

    /// `GET path` (already encoded, as a read-back builds it), with no headers of its own.
    func read(_ path: String, client: ExactHTTPClient) async -> ExactHTTPClient.Answer? {
        switch transport {
        case .http(let base):
            guard let url = URL(string: path, relativeTo: base)?.absoluteURL else { return nil }
            return try? await client.send(method: "GET", url: url, headers: [:], body: Data())
        case .inProcess(let model):
            guard let url = URL(string: path, relativeTo: Self.inProcessBase)?.absoluteURL else { return nil }
            return await model.send(method: "GET", url: url, headers: [:], body: Data())
        case .recording, .replaying:
            let (route, query) = Self.split(path)
            return try? await send(RenderedRequest(method: "GET", path: route, query: query, headers: [:], body: Data(), fresh: [], encoded: true),
                                   client: client)
        }
    }

    /// A read-back's path as a request: its path (already encoded) and its query items.
    private static func split(_ path: String) -> (String, [QueryItem]) {
        guard let mark = path.firstIndex(of: "?") else { return (path, []) }
        let items = path[path.index(after: mark)...].split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map { String($0).removingPercentEncoding ?? String($0) }
            return QueryItem(parts[0], parts.count > 1 ? parts[1] : "")
        }
        return (String(path[..<mark]), items)
    }

    /// What a replayed baseline's missing answer names as its target.
    static let recordingTarget = "the baseline recording"

    /// Whether `error` is a replayed baseline's missing answer (a request the recording never saw), not a server's failure.
    static func isUnrecorded(_ error: ProxyError) -> Bool {
        if case .upstreamFailed(let target, _) = error { return target == recordingTarget }
        return false
    }

    /// The base URL an in-process request is rendered under: only its path and query reach the model.
    private static let inProcessBase = URL(string: "http://127.0.0.1")!
}

/// Values made once per case and sent to every side alike: fresh values for the fields the contracts declare unique, an
/// id nobody holds, a boundary.
struct FreshValues: Sendable {
    /// A UUID no server holds.
    let unknownID: String
    /// This case's own values for every field some contract declares unique (`x-state.unique`), so a shared server never
    /// answers a false conflict.
    let unique: UniqueStandIns
    /// The run's values (one token for the whole run): what a marked duplicate stands for when no slot registered the field.
    let run: UniqueStandIns
    /// The values the run's first record registered, by unique field, for the duplicate cases.
    let registered: [String: String]
    /// The fields each contract declares unique; a request no contract names (another mount) gets every unique field.
    let fieldsByContract: [String: [String]]
    /// The multipart boundary.
    let boundary: String
    /// The run's stand-ins handed out so far, so this case's are its own.
    var ledger = StandInLedger()
    /// The body field that keys a record the request creates or opens (`x-state.key` of a create or authenticate: fb9f56a's
    /// users' email), whose value gets the run's tag.
    var keyField: String? = nil
    /// Letters and digits made once per run (from the clock, not the seed), so a key a past run registered on a
    /// long-lived server never answers a false 409 or a false success.
    var runTag: String = ""

    /// `json` with the run's tag in its key field: the first label of an email's domain (`owner@example.com` becomes
    /// `owner@k3j9x2a.com`), letter for letter, so length, case and form, and with them every rule's answer, stay as
    /// generated, while every run registers its own keys.
    func withRunTag(_ json: JSONValue) -> JSONValue {
        guard let keyField, !runTag.isEmpty, var object = json.objectValue, let value = object[keyField]?.stringValue,
              let at = value.firstIndex(of: "@") else { return json }
        let tag = Array(runTag)
        var result = String(value[...at])
        var index = 0
        var inLabel = true
        for character in value[value.index(after: at)...] {
            if character == "." { inLabel = false }
            guard inLabel, character.isASCII, character.isLetter || character.isNumber else {
                result.append(character)
                continue
            }
            let replacement = tag[index % tag.count]
            result.append(character.isUppercase ? Character(replacement.uppercased()) : replacement)
            index += 1
        }
        object[keyField] = .string(result)
        return .object(object)
    }

    /// A raw body with the run's tag in its key field when it is a JSON object (another media type's case, a charset):
    /// the key's text is replaced where it stands, so the bytes around it go out as generated.
    func withRunTag(text: String) -> String {
        guard let keyField, let json = try? JSONValue(parsing: Array(text.utf8), loneSurrogates: .replace), let value = json[keyField]?.stringValue,
              let tagged = withRunTag(json)[keyField]?.stringValue, tagged != value else { return text }
        return text.replacingOccurrences(of: value, with: tagged)
    }

    /// The fields each contract of `contracts` declares unique (`x-state.unique`), by contract id.
    static func uniqueFields(of contracts: ContractSet) -> [String: [String]] {
        var fields: [String: [String]] = [:]
        for contract in contracts.contracts {
            if let unique = contracts.state.declaration(for: contract.id)?.unique, !unique.isEmpty { fields[contract.id] = unique.map { $0.field } }
        }
        return fields
    }

    /// Marks a value standing for the one the run registered already (the text after the marker is the example value).
    static let registeredMarker = "{registered}"
    /// The same, in upper case (a key stored lower-cased must still conflict).
    static let registeredUpperMarker = "{registered, upper case}"

    /// `json` with each unique field's text replaced by this case's value of the same shape (padding kept), and the
    /// markers resolved to the value the run registered.
    func withUniqueValues(_ json: JSONValue, contractID: String?) -> JSONValue {
        guard !unique.fields.isEmpty, var object = json.objectValue else { return json }
        // Only the contract's own unique fields: the same name elsewhere (a contact email) is ordinary text there.
        let fields = contractID.map { fieldsByContract[$0] ?? [] } ?? unique.fields.sorted()
        var changed = false
        for field in fields {
            guard let current = object[field]?.stringValue, !current.isEmpty else { continue }
            changed = true
            if current.hasPrefix(Self.registeredUpperMarker) {
                object[field] = .string(registeredValue(field, example: String(current.dropFirst(Self.registeredUpperMarker.count))).uppercased())
            } else if current.hasPrefix(Self.registeredMarker) {
                object[field] = .string(registeredValue(field, example: String(current.dropFirst(Self.registeredMarker.count))))
            } else {
                object[field] = .string(ledger.standIn(for: current, field: field, from: unique))
            }
        }
        return changed ? .object(object) : json
    }

    private func registeredValue(_ field: String, example: String) -> String {
        registered[field] ?? run.sameShape(example)
    }
}

/// A request as sent to one side.
struct RenderedRequest: Sendable {
    let method: String
    let path: String
    let query: [QueryItem]
    let headers: [String: String]
    let body: Data
    /// The values this case made fresh in it (see `ExplorationSide.render`).
    var fresh: [String] = []
    /// The values of earlier requests it sends again (`GeneratedRequest.carriedValues`).
    var carried: [String] = []
    /// Whether `path` is already percent-encoded (a read-back's), so it goes out as it is.
    var encoded = false

    /// The full URL under `base` (its path kept as a prefix).
    func url(base: URL) -> URL {
        var text = base.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        text += encoded ? path : path.addingPercentEncoding(withAllowedCharacters: Self.pathAllowed) ?? path
        if !query.isEmpty {
            text += "?" + query.map { Self.encode($0.name) + "=" + Self.encode($0.value) }.joined(separator: "&")
        }
        return URL(string: text) ?? base
    }

    /// How a report shows the request: method, path, query and a body excerpt.
    var display: String {
        var line = method + " " + path
        if !query.isEmpty { line += "?" + query.map { "\($0.name)=\($0.value)" }.joined(separator: "&") }
        if let auth = headers["Authorization"] { line += " (Authorization: \(auth))" }
        if !body.isEmpty { line += " " + Self.excerpt(body) }
        return line
    }

    /// The start of a body on one line: line breaks as ⏎, other control bytes and non-UTF-8 (an image's) as ·.
    static func excerpt(_ data: Data) -> String {
        let text = String(decoding: data.prefix(400), as: UTF8.self).replacingOccurrences(of: "\r\n", with: "⏎")
        var line = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            let unreadable = scalar.properties.generalCategory == .control || scalar == "\u{FFFD}"
            line.append(scalar == "\n" ? "⏎" : unreadable ? "·" : scalar)
        }
        return data.count > 400 ? String(line) + "… (\(data.count) bytes)" : String(line)
    }

    // A generated path may already hold escapes (e.g. `%20`); they go out as written.
    private static let pathAllowed = CharacterSet.urlPathAllowed.union(CharacterSet(charactersIn: "%"))
    private static let queryAllowed = CharacterSet.urlQueryAllowed.subtracting(CharacterSet(charactersIn: "&=+#"))

    private static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: queryAllowed) ?? text
    }
}
