import Foundation

/// What two versions' `service.json` state around every endpoint, compared for a client of the old one: a header every
/// answer carried and no longer does, a stricter router, another answer to a request no contract owns.
///
/// Changes are reported against the new folder's `service.json` (the old one's when only it has the key's value), under
/// the contract name `service`, with the JSON pointer of the key.
extension ContractDiff {
    /// The name service changes are listed under, where contract changes give a contract id.
    static let serviceSubject = "service"

    mutating func recordService(_ severity: ContractChange.Severity, _ kind: ContractChange.Kind, _ pointer: String, _ message: String) {
        changes.append(ContractChange(severity: severity, kind: kind, contract: Self.serviceSubject,
                                      file: LintPrinter.displayPath(new.directory.appendingPathComponent(ServiceFile.fileName)),
                                      pointer: pointer, message: message))
    }

    mutating func compareService() {
        let (a, b) = (old.service, new.service)
        compareHeaders(a.headers, b.headers, pointer: "/headers", noun: "every answer")
        comparePreflight(a.preflight, b.preflight)
        compareRouting(a.routing, b.routing)
        compareRequestID(a.requestID, b.requestID)
        compareEnvelope(a.errorEnvelope, b.errorEnvelope)
        compareAnswer(a.notFound, b.notFound, pointer: "/notFound", noun: "the not-found answer")
        compareAnswer(a.undecodableParameter, b.undecodableParameter, pointer: "/undecodableParameter",
                      noun: "the answer to an undecodable path parameter")
        compareBodyParser(a.bodyParser, b.bodyParser)
        compareAnswer(a.payloadTooLarge, b.payloadTooLarge, pointer: "/errorHandler/payloadTooLarge", noun: "the error handler's too-large answer")
        compareAnswer(a.internalError, b.internalError, pointer: "/errorHandler/internal", noun: "the error handler's internal error")
        compareETag(a.etag, b.etag)
        for mount in b.staticFiles where !a.staticFiles.contains(mount) {
            // A static mount changes answers under it: no ETag, an undecodable name answered as a miss.
            recordService(.breaking, .serviceAnswerChanged, "/staticFiles", "the static file mount \(mount) was added; its files lose the ETag")
        }
        for mount in a.staticFiles where !b.staticFiles.contains(mount) {
            recordService(.breaking, .serviceAnswerChanged, "/staticFiles",
                          "the static file mount \(mount) was removed; an undecodable file name there is no longer a miss")
        }
        switch (a.adminTokenOnLoopback, b.adminTokenOnLoopback) {
        case (nil, _?):
            recordService(.compatible, .authRemoved, "/adminTokenOnLoopback", "admin-token checks on loopback now accept the stated token")
        case (_?, nil):
            recordService(.breaking, .authChanged, "/adminTokenOnLoopback", "admin-token checks on loopback no longer accept any token")
        case (let x?, let y?) where x != y:
            recordService(.breaking, .authChanged, "/adminTokenOnLoopback", "the admin token on loopback changed")
        default:
            break
        }
    }

    /// Headers by name (case-insensitive): one lost or given another value breaks a client reading it; one gained does not.
    mutating func compareHeaders(_ a: [ServiceFile.Header], _ b: [ServiceFile.Header], pointer: String, noun: String) {
        for header in a {
            guard let other = b.first(where: { $0.name.lowercased() == header.name.lowercased() }) else {
                recordService(.breaking, .headerRemoved, pointer, "\(noun) no longer carries the header \(header.name): \(header.value)")
                continue
            }
            if other.value != header.value {
                recordService(.breaking, .headerChanged, JSONPointer.appending(pointer, other.name),
                              "\(noun) carries the header \(header.name) as \(other.value) (was \(header.value))")
            }
        }
        for header in b where !a.contains(where: { $0.name.lowercased() == header.name.lowercased() }) {
            recordService(.compatible, .headerAdded, JSONPointer.appending(pointer, header.name),
                          "\(noun) gained the header \(header.name): \(header.value)")
        }
    }

    mutating func comparePreflight(_ a: ServiceFile.Preflight, _ b: ServiceFile.Preflight) {
        switch (a.enabled, b.enabled) {
        case (true, false):
            // A browser's preflight now reaches the router, which has no OPTIONS route: cross-origin calls fail.
            recordService(.breaking, .serviceAnswerChanged, "/preflight/enabled", "OPTIONS is no longer answered as a CORS preflight")
        case (false, true):
            recordService(.compatible, .serviceAnswerChanged, "/preflight/enabled", "OPTIONS is now answered as a CORS preflight")
        case (true, true):
            if a.status != b.status {
                recordService(.breaking, .serviceAnswerChanged, "/preflight/status", "a preflight is answered \(b.status) (was \(a.status))")
            }
            compareHeaders(a.headers, b.headers, pointer: "/preflight/headers", noun: "a preflight")
        case (false, false):
            break
        }
    }

    /// A rule that matched more requests matching fewer breaks the clients that sent the others; the reverse does not.
    mutating func compareRouting(_ a: RoutingOptions, _ b: RoutingOptions) {
        let rules: [(String, Bool, Bool, String)] = [
            ("caseInsensitive", a.caseInsensitive, b.caseInsensitive, "literal path segments match whatever their case"),
            ("trailingSlash", a.trailingSlash, b.trailingSlash, "one trailing slash is ignored"),
            ("headAsGet", a.headAsGet, b.headAsGet, "HEAD is answered by the GET endpoint of its path"),
        ]
        for (key, was, now, rule) in rules where was != now {
            recordService(was ? .breaking : .compatible, was ? .routingTightened : .routingLoosened, "/routing/\(key)",
                          was ? "no longer: \(rule)" : "now: \(rule)")
        }
    }

    mutating func compareRequestID(_ a: ServiceFile.RequestID?, _ b: ServiceFile.RequestID?) {
        switch (a, b) {
        case (nil, let y?):
            recordService(.compatible, .headerAdded, "/requestId/header", "every answer gained the request id header \(y.header)")
        case (let x?, nil):
            recordService(.breaking, .headerRemoved, "/requestId", "answers no longer carry the request id header \(x.header)")
        case (let x?, let y?):
            if x.header.lowercased() != y.header.lowercased() {
                recordService(.breaking, .headerChanged, "/requestId/header", "the request id header is \(y.header) (was \(x.header))")
            }
            if x.unknownValue != y.unknownValue {
                recordService(.breaking, .serviceAnswerChanged, "/requestId/unknownValue",
                              "an answer given before the request id exists says requestId \(y.unknownValue) (was \(x.unknownValue))")
            }
            // The generator's alphabet is not compared: a request id is opaque to a client.
        case (nil, nil):
            break
        }
    }

    mutating func compareEnvelope(_ a: ServiceFile.ErrorEnvelope, _ b: ServiceFile.ErrorEnvelope) {
        if a.key != b.key {
            recordService(.breaking, .serviceAnswerChanged, "/errorEnvelope/key",
                          "error answers are wrapped in \(b.key.map { "\"\($0)\"" } ?? "nothing") (was \(a.key.map { "\"\($0)\"" } ?? "nothing"))")
        }
        for member in a.members where !b.members.contains(member) {
            recordService(.breaking, .responseFieldRemoved, "/errorEnvelope/members", "error answers no longer carry \(member.rawValue)")
        }
        for member in b.members where !a.members.contains(member) {
            recordService(.compatible, .responseFieldAdded, "/errorEnvelope/members", "error answers now carry \(member.rawValue)")
        }
        if a.contentType != b.contentType {
            recordService(.breaking, .contentTypeChanged, "/errorEnvelope/contentType",
                          "error answers' content type changed from \(a.contentType) to \(b.contentType)")
        }
    }

    /// Another status, code, message or field for the same situation is breaking, as for a documented answer.
    mutating func compareAnswer(_ a: ServiceAnswer, _ b: ServiceAnswer, pointer: String, noun: String) {
        guard a != b else { return }
        recordService(.breaking, .serviceAnswerChanged, pointer, "\(noun) is \(Self.describe(b)) (was \(Self.describe(a)))")
    }

    static func describe(_ answer: ServiceAnswer) -> String {
        "\(answer.status) \(answer.code)\(answer.field.map { " field \($0)" } ?? ""), \"\(answer.message)\""
    }

    mutating func compareBodyParser(_ a: ServiceFile.BodyParser, _ b: ServiceFile.BodyParser) {
        switch b.limitBytes {
        case ..<a.limitBytes:
            recordService(.breaking, .limitTightened, "/bodyParser/limitBytes",
                          "the JSON body parser's limit (limitBytes) tightened from \(a.limitBytes) to \(b.limitBytes) bytes")
        case (a.limitBytes + 1)...:
            recordService(.compatible, .limitWidened, "/bodyParser/limitBytes",
                          "the JSON body parser's limit (limitBytes) widened from \(a.limitBytes) to \(b.limitBytes) bytes")
        default:
            break
        }
        if a.beforeRequestID != b.beforeRequestID {
            recordService(b.beforeRequestID ? .breaking : .compatible, b.beforeRequestID ? .headerRemoved : .headerAdded,
                          "/bodyParser/beforeRequestId",
                          b.beforeRequestID ? "the body parser's answers no longer carry the request id" : "the body parser's answers now carry the request id")
        }
        if a.loneSurrogates != b.loneSurrogates {
            // A body the old parser accepted and the new one refuses is a client's request that stops working.
            let tightened = b.loneSurrogates == .refuse
            recordService(tightened ? .breaking : .compatible, tightened ? .limitTightened : .limitWidened, "/bodyParser/loneSurrogates",
                          tightened ? "the JSON body parser refuses escaped lone surrogates it accepted (loneSurrogates \(b.loneSurrogates.rawValue))"
                              : "the JSON body parser accepts escaped lone surrogates it refused (loneSurrogates \(b.loneSurrogates.rawValue))")
        }
        compareAnswer(a.tooLarge, b.tooLarge, pointer: "/bodyParser/tooLarge", noun: "the answer to a body over the limit")
        compareAnswer(a.malformed, b.malformed, pointer: "/bodyParser/malformed", noun: "the answer to a body that is not JSON")
        compareAnswer(a.unsupportedCharset, b.unsupportedCharset, pointer: "/bodyParser/unsupportedCharset",
                      noun: "the answer to an unsupported charset")
    }

    mutating func compareETag(_ a: String?, _ b: String?) {
        switch (a, b) {
        case (nil, let y?):
            recordService(.compatible, .headerAdded, "/etag", "answers with a body gained an ETag (\(y))")
        case (let x?, nil):
            recordService(.breaking, .headerRemoved, "/etag", "answers with a body no longer carry an ETag (\(x)) or answer 304")
        case (let x?, let y?) where x != y:
            // Another algorithm makes every cached ETag stale once: one more full answer, nothing a client must change.
            recordService(.compatible, .headerChanged, "/etag", "the ETag algorithm changed from \(x) to \(y)")
        default:
            break
        }
    }
}
