import ContractKit
import ContractModel
import Foundation
import MockBackend
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One way the server's answer differs from the model's: status, a body pointer (error code, field, message, a stored value).
public struct AnswerDifference: Sendable, Hashable {
    /// What differs: `status`, `body /error/code`, `read back body /description`, `body`.
    public let aspect: String
    /// The model's side.
    public let model: String
    /// The server's side.
    public let server: String
    /// Whether two differences in this aspect only belong together with the same values (status, error code, message), or
    /// whatever the values (a stored value that comes back changed differs per request).
    let groupsByValue: Bool
    /// The JSON pointer into the body when the difference is a body member (the schema tells whether it is stated).
    var bodyPointer: String? = nil
    /// Whether an assumption the model recorded for the answer can make this a note: not for a required header the
    /// server stops sending, nor for a side that gave no answer.
    var excusable = true
    /// For a difference in a read that follows the request (`then`), the contract and status of that read's model answer.
    var readContractID: String? = nil
    var readStatus: Int? = nil
    /// Set when no contract states the aspect at all (a header value, a token's claims, seen against a baseline): the
    /// sentence saying so, which makes the difference a change (a note), never a failure of a stated rule.
    var unstated: String? = nil

    /// The prefix of an aspect seen in the announcement read back after a create.
    static let readBackPrefix = "read back "
}

/// Compares two answers to the same request after replacing what each server makes up (ids, passwords, timestamps,
/// request ids) by what it stands for, so only the behaviour the contract pins is compared.
struct AnswerComparison: Sendable {
    /// The concrete ids and passwords on each side, mapped to the same label (`<announcement 1>`).
    var labels = LabelTable()
    /// Leave `error.message` out (servers that localise).
    var ignoreMessages = false
    /// Compare a generated token's header and claims, not its form only (against a baseline: `verify --baseline`).
    var comparesTokenClaims = false
    /// Header names whose values the baseline itself changes between two identical requests (measured by
    /// `LockstepRun.measureBaselineNoise`): never a change.
    var measuredNoise: Set<String> = []
    /// Members each server makes up, by name, with the named generator the contracts declare for them (`x-state.generate`,
    /// a response's `x-generate`): a value of the generator's form stands for that form only, so two servers' tokens
    /// compare equal and a malformed one (an id that is not v4, seven digits) still differs.
    var generated: [String: StateGenerator] = [:]
    /// The contracts, for the full check of freshly generated values (`generatedDifferences`).
    var contracts: ContractSet?

    /// The generated members the contracts declare, name → generator (the first declaration of a name wins).
    static func generatedMembers(of contracts: ContractSet) -> [String: StateGenerator] {
        var members: [String: StateGenerator] = [:]
        for contract in contracts.contracts {
            for response in contract.responses {
                for (pointer, generator) in GeneratedMembers.of(contract, in: contracts, status: response.status) {
                    guard let name = pointer.split(separator: "/").last.map(String.init), members[name] == nil else { continue }
                    members[name] = generator
                }
            }
        }
        return members
    }

    /// `<generator>` when `text` has the form the generator makes (the one check of generated values, without what depends
    /// on the moment); nil otherwise.
    static func shape(of text: String, generator: StateGenerator) -> String? {
        generator.hasForm(.string(text), context: GeneratedValueContext()) ? "<\(generator.rawValue)>" : nil
    }

    /// The freshly generated values of the server's answer that break what their generator states (its clock, a token's
    /// lifetime and signature included) where the model's answer to the same request keeps it: one difference each.
    func generatedDifferences(model: ExactHTTPClient.Answer, server: ExactHTTPClient.Answer, contractID: String?,
                              besides found: [AnswerDifference]) -> [AnswerDifference] {
        guard model.status == server.status, let contracts, let contract = contractID.flatMap(contracts.contract(id:)),
              let serverBody = try? JSONValue(parsing: server.body) else { return [] }
        let now = Date()
        let serverTime = server.headers.first { $0.name.lowercased() == "date" }.flatMap { HTTPDate.parse($0.value) } ?? now
        let serverProblems = GeneratedMembers.problems(in: serverBody, contract: contract, contracts: contracts, status: server.status,
                                                       context: GeneratedValueContext(serverTime: serverTime))
        guard !serverProblems.isEmpty else { return [] }
        let modelBody = try? JSONValue(parsing: model.body)
        let modelProblems = modelBody.map {
            GeneratedMembers.problems(in: $0, contract: contract, contracts: contracts, status: model.status, context: GeneratedValueContext(serverTime: now))
        } ?? []
        return serverProblems.compactMap { pointer, problem in
            // A model that broke its own generator, or a difference already reported at that member, says nothing new.
            guard !modelProblems.contains(where: { $0.pointer == pointer }), !found.contains(where: { $0.bodyPointer == pointer }) else { return nil }
            return AnswerDifference(aspect: "body " + pointer, model: problem.expected, server: problem.got, groupsByValue: false,
                                    bodyPointer: pointer, excusable: false)
        }
    }

    /// Every difference between the model's and the server's answer, `prefix` naming the request (e.g. `read back `).
    func differences(model: ExactHTTPClient.Answer, server: ExactHTTPClient.Answer, prefix: String = "") -> [AnswerDifference] {
        var found: [AnswerDifference] = []
        if model.status != server.status {
            found.append(AnswerDifference(aspect: prefix + "status", model: Self.summary(model), server: Self.summary(server), groupsByValue: true))
            return found
        }
        let modelJSON = try? JSONValue(parsing: model.body)
        let serverJSON = try? JSONValue(parsing: server.body)
        if let modelJSON, let serverJSON {
            var pointers: [(String, JSONValue?, JSONValue?)] = []
            Self.diff(normalized(modelJSON, key: nil, path: ""), normalized(serverJSON, key: nil, path: ""), at: "", into: &pointers)
            for (pointer, left, right) in pointers.prefix(6) {
                var difference = AnswerDifference(aspect: prefix + "body " + (pointer.isEmpty ? "/" : pointer), model: Self.describe(left),
                                                  server: Self.describe(right), groupsByValue: pointer.hasPrefix("/error/"), bodyPointer: pointer)
                // Two well-formed tokens that differ in their claims: the contracts state the token's form only.
                if comparesTokenClaims, let before = left?.stringValue, let after = right?.stringValue,
                   before.hasPrefix(Self.tokenShape + " "), after.hasPrefix(Self.tokenShape + " ") {
                    difference.unstated = "no contract states the claims of the token at \(pointer)"
                }
                found.append(difference)
            }
        } else if normalizedText(model.body) != normalizedText(server.body) {
            found.append(AnswerDifference(aspect: prefix + "body", model: RenderedRequest.excerpt(model.body),
                                          server: RenderedRequest.excerpt(server.body), groupsByValue: false))
        }
        return found
    }

    /// Header names the server sends and the model does not (`added`), and the other way round (`removed`).
    static func headerChanges(model: ExactHTTPClient.Answer, server: ExactHTTPClient.Answer) -> (added: [String], removed: [String]) {
        let modelNames = names(model)
        let serverNames = names(server)
        return (serverNames.subtracting(modelNames).sorted(), modelNames.subtracting(serverNames).sorted())
    }

    /// The headers `service.json` states (on every answer or on preflights) that the model sends and the server sends with
    /// another value: a stated value is part of the contract, so each is a difference, never information (a header the
    /// server drops or adds is a change of the header set, reported apart).
    static func statedHeaderDifferences(model: ExactHTTPClient.Answer, server: ExactHTTPClient.Answer, service: ServiceFile) -> [AnswerDifference] {
        var names: [String] = []
        for header in service.headers + service.preflight.headers where !names.contains(header.name.lowercased()) {
            names.append(header.name.lowercased())
        }
        func value(_ name: String, in answer: ExactHTTPClient.Answer) -> String? {
            let values = answer.headers.filter { $0.name.lowercased() == name }.map(\.value)
            return values.isEmpty ? nil : values.joined(separator: ", ")
        }
        return names.compactMap { name in
            guard let expected = value(name, in: model), let got = value(name, in: server), got != expected else { return nil }
            return AnswerDifference(aspect: "header \(name)", model: "\"\(expected)\" (service.json)", server: "\"\(got)\"",
                                    groupsByValue: true, excusable: false)
        }
    }

    private static func names(_ answer: ExactHTTPClient.Answer) -> Set<String> {
        // Framing headers follow the connection, not the API; the harness's own headers are not the server's behaviour.
        Set(answer.headers.map { $0.name.lowercased() }.filter {
            !["connection", "keep-alive", "transfer-encoding", "content-length"].contains($0) && !$0.hasPrefix("x-spotcheck-")
        })
    }

    /// Headers whose values follow the moment, the connection or the body, not the behaviour: never a change between two
    /// servers (measured: two instances of the reproduction, and `serve` beside itself, differ in these only).
    static let noiseHeaders: Set<String> = ["date", "etag", "last-modified", "age", "expires", "server-timing", "x-response-time"]

    /// Against a baseline: every header whose value differs once made-up values are labelled, or that one of the two
    /// answers carries and the other does not, except `noiseHeaders`, the framing ones, the harness's own and those
    /// `service.json` states (`statedHeaderDifferences` judges those). Each is a change: no contract states it.
    func headerValueDifferences(baseline: ExactHTTPClient.Answer, server: ExactHTTPClient.Answer, service: ServiceFile) -> [AnswerDifference] {
        // The request id is generated per answer (its presence is compared with the header set, its value never).
        let stated = Set((service.headers + service.preflight.headers).map { $0.name.lowercased() } + [service.requestID?.header.lowercased()].compactMap { $0 })
        func values(_ answer: ExactHTTPClient.Answer) -> [String: String] {
            var result: [String: String] = [:]
            for header in answer.headers {
                let name = header.name.lowercased()
                result[name] = result[name].map { $0 + ", " + header.value } ?? header.value
            }
            return result
        }
        let (expected, got) = (values(baseline), values(server))
        let names = Self.names(baseline).union(Self.names(server))
            .subtracting(Self.noiseHeaders).subtracting(measuredNoise).subtracting(stated).sorted()
        return names.compactMap { name in
            let (left, right) = (expected[name].map(replaceLabels), got[name].map(replaceLabels))
            guard left != right else { return nil }
            var difference = AnswerDifference(aspect: "header \(name)", model: left.map { "\"\($0)\"" } ?? "absent",
                                              server: right.map { "\"\($0)\"" } ?? "absent", groupsByValue: true)
            difference.unstated = switch (left, right) {
            case (nil, _): "no contract states the header \(name); the baseline does not send it"
            case (_, nil): "no contract states the header \(name); the baseline sends it"
            default: "no contract states the value of the header \(name)"
            }
            return difference
        }
    }

    /// `201`, or the status with the error code, field and quoted message: how a report names an answer.
    static func summary(_ answer: ExactHTTPClient.Answer) -> String {
        // Every case's two answers are summarised, and a list's body is long: it is parsed only when an `error` member
        // can be in it (the word itself, or an escape that could spell it).
        guard mayHoldError(answer.body), let error = (try? JSONValue(parsing: answer.body))?["error"] else {
            return answer.body.isEmpty || answer.status < 300 ? "\(answer.status)" : "\(answer.status) \(RenderedRequest.excerpt(answer.body.prefix(80)))"
        }
        var text = "\(answer.status)"
        if let code = error["code"]?.stringValue { text += " " + code }
        if let field = error["field"]?.stringValue { text += " " + field }
        if let message = error["message"]?.stringValue { text += " \"\(message)\"" }
        return text
    }

    /// Whether `body` holds the bytes `error` or a `\u` escape: without either, no JSON member is named `error`.
    static func mayHoldError(_ body: Data) -> Bool {
        body.range(of: Data("error".utf8)) != nil || body.range(of: Data("\\u".utf8)) != nil
    }

    private func normalizedText(_ data: Data) -> String {
        Self.scalarExact(replaceLabels(String(decoding: data, as: UTF8.self)))
    }

    /// `text` with each non-ASCII scalar spelled out (`\u{301}`): Swift compares strings by canonical equivalence, so an
    /// NFD text would equal its NFC form, and a server that normalizes what it stores would go unseen.
    static func scalarExact(_ text: String) -> String {
        guard !text.utf8.allSatisfy({ $0 < 0x80 }) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar.isASCII { out.unicodeScalars.append(scalar) } else { out += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}" }
        }
        return out
    }

    /// The value with made-up values replaced and, in lists, only the run's own announcements kept.
    private func normalized(_ value: JSONValue, key: String?, path: String) -> JSONValue {
        switch value {
        case .string(let text):
            if key == "requestId" { return "<request id>" }
            // The run's own ids keep their labels: which record an answer names is compared, not only its form.
            if let label = labels[text] { return .string(label) }
            if let key, let generator = generated[key], let shape = Self.shape(of: text, generator: generator) {
                // Against a baseline a token's claims are behaviour too: its form alone would let them change unseen.
                if comparesTokenClaims, generator == .jwtHS256, let claims = tokenClaims(text) { return .string(shape + " " + claims) }
                return .string(shape)
            }
            return .string(Self.scalarExact(replaceLabels(text)))
        case .array(let items):
            let kept = items.filter { item in
                // A list answer holds whatever else the server stores; only the run's own announcements are compared.
                guard let id = item["id"]?.stringValue else { return true }
                return labels[id] != nil
            }
            return .array(kept.enumerated().map { normalized($0.element, key: nil, path: path + "/\($0.offset)") })
        case .object(let object):
            var result = JSONObject()
            for (name, member) in object {
                if ignoreMessages, name == "message", path == "/error" { continue }
                result[name] = normalized(member, key: name, path: path + "/" + name)
            }
            return .object(result)
        default:
            return value
        }
    }

    /// How a well-formed generated token reads once normalized.
    static let tokenShape = "<\(StateGenerator.jwtHS256.rawValue)>"

    /// A JWT's header and claims as compared against a baseline: time claims as the lifetime they give (`exp - iat`),
    /// every string with the run's labels, members in a stable order; nil when the text is not a JWT.
    func tokenClaims(_ token: String) -> String? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let header = Self.base64URLJSON(parts[0]), let claims = Self.base64URLJSON(parts[1]),
              case .object(var members) = claims
        else { return nil }
        let issued = members["iat"]?.numberValue
        for name in ["iat", "nbf", "exp"] {
            guard let value = members[name]?.numberValue else { continue }
            members[name] = name == "exp" ? issued.map { .string("iat+\(Int(value - $0))s") } ?? "<time>" : "<time>"
        }
        let normalizedClaims = normalized(.object(members), key: nil, path: "")
        return "header \(Self.sortedText(header)) claims \(Self.sortedText(normalizedClaims))"
    }

    /// `value` as JSON text with every object's members in name order: two servers may order claims differently.
    static func sortedText(_ value: JSONValue) -> String {
        switch value {
        case .object(let object):
            let members = object.map { ($0.key, $0.value) }.sorted { $0.0 < $1.0 }
            return "{" + members.map { JSONValue.string($0.0).serialized() + ":" + sortedText($0.1) }.joined(separator: ",") + "}"
        case .array(let items):
            return "[" + items.map(sortedText).joined(separator: ",") + "]"
        default:
            return value.serialized()
        }
    }

    private static func base64URLJSON(_ part: Substring) -> JSONValue? {
        var text = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while text.count % 4 != 0 { text += "=" }
        guard let data = Data(base64Encoded: text) else { return nil }
        return try? JSONValue(parsing: data)
    }

    private func replaceLabels(_ text: String) -> String {
        var text = text
        if let label = labels[text] { return label }
        // Every string of every answer meets every record's label (hundreds by the end of a run, and 64 KiB texts among
        // the strings): a byte search first, Foundation's replacing only on a hit. Foundation's `contains` here was three
        // quarters of verify's CPU.
        for (concrete, label) in labels.held(in: text) {
            text = text.replacingOccurrences(of: concrete, with: label)
        }
        // Regular expressions only where one could match: most strings hold neither a UUID nor a timestamp.
        guard text.utf8.count >= 20, text.utf8.contains(UInt8(ascii: "-")), text.count >= 20 else { return text }
        text = text.replacingOccurrences(of: Self.uuid, with: "<uuid>", options: .regularExpression)
        return Self.timestampShapes(text)
    }

    /// The labels by concrete value, with the ones long enough to be searched for inside other texts indexed by their
    /// first bytes: every string of every answer meets every label (thousands by the end of a run), and trying each
    /// label on each string was three quarters of an exploration's CPU. A text is scanned once instead, each window of
    /// `LabelTable.window` bytes looked up.
    struct LabelTable: Sendable {
        /// How many leading bytes index a label: a searchable label is longer (a password's six digits would match
        /// inside unrelated texts).
        static let window = 7

        private var byValue: [String: String] = [:]
        /// Searchable concrete values by their first `window` bytes, packed.
        private var byPrefix: [UInt64: Set<String>] = [:]

        init() {}

        subscript(concrete: String) -> String? {
            get { byValue[concrete] }
            set {
                byValue[concrete] = newValue
                guard let key = Self.prefixKey(concrete) else { return }
                if newValue != nil {
                    byPrefix[key, default: []].insert(concrete)
                } else {
                    byPrefix[key]?.remove(concrete)
                    if byPrefix[key]?.isEmpty == true { byPrefix[key] = nil }
                }
            }
        }

        /// The searchable labels `text` holds byte for byte, longest first (so a label inside another is replaced after it).
        func held(in text: String) -> [(concrete: String, label: String)] {
            guard !byPrefix.isEmpty else { return [] }
            var text = text
            var found: Set<String> = []
            text.withUTF8 { bytes in
                guard bytes.count >= Self.window else { return }
                var key: UInt64 = 0
                for index in 0..<bytes.count {
                    key = ((key << 8) | UInt64(bytes[index])) & Self.windowMask
                    guard index >= Self.window - 1, let candidates = byPrefix[key] else { continue }
                    let start = index - (Self.window - 1)
                    for concrete in candidates where !found.contains(concrete) && Self.matches(concrete, in: bytes, at: start) {
                        found.insert(concrete)
                    }
                }
            }
            return found.sorted { ($0.utf8.count, $0) > ($1.utf8.count, $1) }.compactMap { concrete in
                byValue[concrete].map { (concrete, $0) }
            }
        }

        private static let windowMask: UInt64 = (1 << UInt64(8 * window)) - 1

        /// The first `window` bytes packed, for a value of at least `window` bytes and more than six characters; else nil.
        private static func prefixKey(_ concrete: String) -> UInt64? {
            guard concrete.utf8.count >= window, concrete.count > 6 else { return nil }
            return concrete.utf8.prefix(window).reduce(UInt64(0)) { ($0 << 8) | UInt64($1) }
        }

        private static func matches(_ concrete: String, in bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
            let part = concrete.utf8
            guard start + part.count <= bytes.count else { return false }
            var index = start
            for byte in part {
                guard bytes[index] == byte else { return false }
                index += 1
            }
            return true
        }
    }

    private static let uuid = "[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}"
    // Any ISO 8601 date-time, with or without seconds, fraction and offset: each stands for its shape only.
    private static let timestamp = "[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]+)?)?(Z|[+-][0-9]{2}:?[0-9]{2})?"

    /// Each made-up timestamp replaced by its format (digits as 0): two instants in the stated format compare equal,
    /// while one written in another format (no milliseconds, an offset instead of `Z`) is a difference.
    static func timestampShapes(_ text: String) -> String {
        var result = ""
        var rest = text[...]
        while let range = rest.range(of: timestamp, options: .regularExpression) {
            result += rest[..<range.lowerBound]
            let shape = String(rest[range].map { $0.isNumber ? "0" : $0 })
            result += "<timestamp \(shape)>"
            rest = rest[range.upperBound...]
        }
        return result + rest
    }

    private static func diff(_ left: JSONValue?, _ right: JSONValue?, at pointer: String, into found: inout [(String, JSONValue?, JSONValue?)]) {
        guard found.count < 6, left != right else { return }
        switch (left, right) {
        case (.object(let a)?, .object(let b)?):
            var names = a.keys
            for name in b.keys where !names.contains(name) { names.append(name) }
            for name in names { diff(a[name], b[name], at: pointer + "/" + name, into: &found) }
        case (.array(let a)?, .array(let b)?) where a.count == b.count:
            for index in a.indices { diff(a[index], b[index], at: pointer + "/\(index)", into: &found) }
        default:
            found.append((pointer, left, right))
        }
    }

    private static func describe(_ value: JSONValue?) -> String {
        guard let value else { return "absent" }
        let text = String(decoding: value.data(), as: UTF8.self)
        return text.count > 160 ? String(text.prefix(160)) + "… (\(text.count) characters)" : text
    }
}
