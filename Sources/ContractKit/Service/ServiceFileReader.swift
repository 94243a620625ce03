import Foundation

/// Reads and lints `service.json`: every key is checked, a missing section keeps its plain default.
enum ServiceFileReader {
    static let topKeys = ["$comment", "requestId", "errorEnvelope", "headers", "preflight", "routing", "notFound", "undecodableParameter",
                          "bodyParser", "errorHandler", "etag", "staticFiles", "adminTokenOnLoopback"]
    static let requestIDKeys = ["header", "generator", "unknownValue"]
    static let envelopeKeys = ["key", "members", "contentType"]
    static let preflightKeys = ["enabled", "status", "headers", "openMethods"]
    static let routingKeys = ["caseInsensitive", "trailingSlash", "headAsGet"]
    static let bodyParserKeys = ["limitBytes", "beforeRequestId", "tooLarge", "malformed", "unsupportedCharset", "loneSurrogates"]
    static let errorHandlerKeys = ["payloadTooLarge", "internal"]
    static let answerKeys = ["status", "code", "message", "field"]

    /// The service `value` (the parsed file) describes, with a problem for everything that is wrong.
    static func read(_ value: JSONValue, file: String, problems: inout [LintProblem]) -> ServiceFile {
        var service = ServiceFile.plain
        guard let top = ObjectReader(value, file: file, pointer: "", what: "the service file", problems: &problems) else { return service }
        top.checkKeys(allowed: topKeys, required: [], what: "the service file", problems: &problems)
        if let section = section(top, "requestId", problems: &problems) {
            section.checkKeys(allowed: requestIDKeys, required: ["header", "generator"], what: "requestId", problems: &problems)
            let generator = section.string("generator", problems: &problems) ?? ServiceFile.requestIDGenerators[0]
            if !ServiceFile.requestIDGenerators.contains(generator) {
                problems.append(LintProblem(file: file, pointer: section.at("generator"),
                    message: "unknown request id generator \"\(generator)\"; known: \(ServiceFile.requestIDGenerators.joined(separator: ", "))"))
            }
            service.requestID = ServiceFile.RequestID(header: nonEmpty(section, "header", problems: &problems) ?? "x-request-id",
                                                      generator: generator,
                                                      unknownValue: section.string("unknownValue", problems: &problems) ?? "unknown")
        }
        if let section = section(top, "errorEnvelope", problems: &problems) {
            section.checkKeys(allowed: envelopeKeys, required: ["members"], what: "errorEnvelope", problems: &problems)
            if section.object["key"] != nil { service.errorEnvelope.key = section.optionalString("key", problems: &problems) }
            if let contentType = section.string("contentType", problems: &problems) { service.errorEnvelope.contentType = contentType }
            if let list = section.object["members"] {
                var members: [ServiceFile.ErrorEnvelope.Member] = []
                let known = ServiceFile.ErrorEnvelope.Member.allCases.map(\.rawValue)
                for (i, item) in (list.arrayValue ?? []).enumerated() {
                    if let name = item.stringValue, let member = ServiceFile.ErrorEnvelope.Member(rawValue: name), !members.contains(member) {
                        members.append(member)
                    } else {
                        problems.append(LintProblem(file: file, pointer: JSONPointer.appending(section.at("members"), i),
                            message: "a member must be one of \(known.joined(separator: ", ")), each once; found \(SchemaValidator.describe(item))"))
                    }
                }
                if list.arrayValue == nil {
                    problems.append(LintProblem(file: file, pointer: section.at("members"),
                        message: "members must be an array of \(known.joined(separator: ", ")), found \(SchemaValidator.describe(list))"))
                }
                service.errorEnvelope.members = members
            }
        }
        if top.object["headers"] != nil { service.headers = headers(top, "headers", problems: &problems) }
        if let section = section(top, "preflight", problems: &problems) {
            section.checkKeys(allowed: preflightKeys, required: ["enabled"], what: "preflight", problems: &problems)
            service.preflight.enabled = section.bool("enabled", problems: &problems) ?? false
            if let status = status(section, problems: &problems) { service.preflight.status = status }
            if section.object["headers"] != nil { service.preflight.headers = headers(section, "headers", problems: &problems) }
            if let methods = nonEmpty(section, "openMethods", problems: &problems) { service.preflight.openMethods = methods }
        }
        if let section = section(top, "routing", problems: &problems) {
            section.checkKeys(allowed: routingKeys, required: [], what: "routing", problems: &problems)
            service.routing = RoutingOptions(caseInsensitive: section.bool("caseInsensitive", problems: &problems) ?? false,
                                             trailingSlash: section.bool("trailingSlash", problems: &problems) ?? false,
                                             headAsGet: section.bool("headAsGet", problems: &problems) ?? false)
        }
        if let answer = answer(top, "notFound", problems: &problems) { service.notFound = answer }
        if let answer = answer(top, "undecodableParameter", problems: &problems) { service.undecodableParameter = answer }
        if let section = section(top, "bodyParser", problems: &problems) {
            section.checkKeys(allowed: bodyParserKeys, required: ["limitBytes"], what: "bodyParser", problems: &problems)
            if let limit = section.int("limitBytes", minimum: 1, problems: &problems) { service.bodyParser.limitBytes = limit }
            service.bodyParser.beforeRequestID = section.bool("beforeRequestId", problems: &problems) ?? false
            if let answer = answer(section, "tooLarge", problems: &problems) { service.bodyParser.tooLarge = answer }
            if let answer = answer(section, "malformed", problems: &problems) { service.bodyParser.malformed = answer }
            if let answer = answer(section, "unsupportedCharset", problems: &problems) { service.bodyParser.unsupportedCharset = answer }
            if let policy = section.optionalString("loneSurrogates", problems: &problems) {
                if let known = LoneSurrogatePolicy(rawValue: policy) {
                    service.bodyParser.loneSurrogates = known
                } else {
                    problems.append(LintProblem(file: file, pointer: section.at("loneSurrogates"), message:
                        "unknown lone surrogate policy \"\(policy)\"; expected one of \(LoneSurrogatePolicy.allCases.map(\.rawValue).joined(separator: ", "))"))
                }
            }
        }
        if let section = section(top, "errorHandler", problems: &problems) {
            section.checkKeys(allowed: errorHandlerKeys, required: [], what: "errorHandler", problems: &problems)
            if let answer = answer(section, "payloadTooLarge", problems: &problems) { service.payloadTooLarge = answer }
            if let answer = answer(section, "internal", problems: &problems) { service.internalError = answer }
        }
        if let etag = top.optionalString("etag", problems: &problems) {
            if ServiceFile.etagAlgorithms.contains(etag) {
                service.etag = etag
            } else {
                problems.append(LintProblem(file: file, pointer: "/etag",
                    message: "unknown ETag algorithm \"\(etag)\"; known: \(ServiceFile.etagAlgorithms.joined(separator: ", "))"))
            }
        }
        if let token = top.optionalString("adminTokenOnLoopback", problems: &problems) { service.adminTokenOnLoopback = token }
        if let list = top.object["staticFiles"] {
            guard let items = list.arrayValue else {
                problems.append(LintProblem(file: file, pointer: "/staticFiles",
                    message: "staticFiles must be an array of mount paths such as \"/static\", found \(SchemaValidator.describe(list))"))
                return service
            }
            for (i, item) in items.enumerated() {
                guard let path = item.stringValue, path.hasPrefix("/"), path.count > 1, !path.hasSuffix("/"), !path.contains("{") else {
                    problems.append(LintProblem(file: file, pointer: JSONPointer.appending("/staticFiles", i),
                        message: "a static mount is a literal path such as \"/static\" (no trailing slash, no parameters), found \(SchemaValidator.describe(item))"))
                    continue
                }
                service.staticFiles.append(path)
            }
        }
        return service
    }

    private static func section(_ reader: ObjectReader, _ key: String, problems: inout [LintProblem]) -> ObjectReader? {
        guard let value = reader.object[key] else { return nil }
        return ObjectReader(value, file: reader.file, pointer: reader.at(key), what: key, problems: &problems)
    }

    private static func nonEmpty(_ reader: ObjectReader, _ key: String, problems: inout [LintProblem]) -> String? {
        guard let text = reader.string(key, problems: &problems) else { return nil }
        guard !text.isEmpty else {
            problems.append(LintProblem(file: reader.file, pointer: reader.at(key), message: "\(key) must not be empty"))
            return nil
        }
        return text
    }

    private static func status(_ reader: ObjectReader, problems: inout [LintProblem]) -> Int? {
        guard let status = reader.int("status", minimum: 100, problems: &problems) else { return nil }
        guard status <= 599 else {
            problems.append(LintProblem(file: reader.file, pointer: reader.at("status"), message: "status must be between 100 and 599, found \(status)"))
            return nil
        }
        return status
    }

    private static func headers(_ reader: ObjectReader, _ key: String, problems: inout [LintProblem]) -> [ServiceFile.Header] {
        guard let value = reader.object[key] else { return [] }
        guard case .object(let members) = value else {
            problems.append(LintProblem(file: reader.file, pointer: reader.at(key),
                message: "\(key) must be an object of header name → value, found \(SchemaValidator.describe(value))"))
            return []
        }
        var out: [ServiceFile.Header] = []
        for (name, item) in members {
            guard let text = item.stringValue else {
                problems.append(LintProblem(file: reader.file, pointer: JSONPointer.appending(reader.at(key), name),
                    message: "the value of \(name) must be a string, found \(SchemaValidator.describe(item))"))
                continue
            }
            out.append(ServiceFile.Header(name: name, value: text))
        }
        return out
    }

    /// An error answer object `{status, code, message, field}`.
    static func answer(_ reader: ObjectReader, _ key: String, problems: inout [LintProblem]) -> ServiceAnswer? {
        guard let section = section(reader, key, problems: &problems) else { return nil }
        section.checkKeys(allowed: answerKeys, required: ["status", "code", "message"], what: key, problems: &problems)
        let status = status(section, problems: &problems)
        let code = section.string("code", problems: &problems)
        let message = section.string("message", problems: &problems)
        let field = section.string("field", problems: &problems)
        guard let status, let code, let message else { return nil }
        return ServiceAnswer(status: status, code: code, message: message, field: field)
    }
}
