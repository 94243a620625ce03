import Foundation

/// Every contract's method and path template, plus its `x-also-at` templates, compiled once for per-request matching
/// with the service file's routing options (Express's by default for PetSpot: see `service.json`).
public struct RouteTable: Sendable {
    /// One method and path template that reaches a contract.
    public struct Route: Sendable {
        /// The contract's id.
        public let contractID: String
        /// The contract's upper-case method.
        public let method: String
        /// The template this route matches (the contract's path, or one of its `x-also-at`).
        public let template: PathTemplate
        /// Whether the template is an `x-also-at` one.
        public let isAlternative: Bool
        /// Whether the route lies under a static file mount: no ETag, an undecodable name is a miss.
        public let isStatic: Bool
        /// The segments, literals as bytes (lower-cased when routing is case-insensitive).
        fileprivate let segments: [CompiledSegment]
        /// How many literal segments: the more literal route wins when several match.
        fileprivate let literalCount: Int
    }

    fileprivate enum CompiledSegment: Sendable {
        case literal([UInt8])
        case parameter(String)
    }

    /// The routes, contracts in file order, each contract's own path before its alternatives.
    public let routes: [Route]
    /// The options matching follows.
    public let options: RoutingOptions
    /// Whether `OPTIONS` is a preflight whatever the path.
    public let preflight: Bool

    /// The table for `contracts` under `service`'s routing, preflight and static mounts.
    public init(contracts: [Contract], service: ServiceFile) {
        options = service.routing
        preflight = service.preflight.enabled
        var routes: [Route] = []
        for contract in contracts {
            for (template, isAlternative) in [(contract.path, false)] + Self.alternatives(of: contract).map({ ($0.template, true) }) {
                let isStatic = service.staticFiles.contains { mount in
                    template.text.hasPrefix(mount + "/") || Self.fold(template.text, service.routing).hasPrefix(Self.fold(mount + "/", service.routing))
                }
                let segments = template.segments.map { segment -> CompiledSegment in
                    switch segment {
                    case .literal(let text): return .literal(Array(Self.fold(text, service.routing).utf8))
                    case .parameter(let name): return .parameter(name)
                    }
                }
                routes.append(Route(contractID: contract.id, method: contract.method, template: template, isAlternative: isAlternative,
                                    isStatic: isStatic, segments: segments, literalCount: template.literalCount))
            }
        }
        self.routes = routes
    }

    /// The route for `method` (upper case) and `path` (a query string or fragment is ignored).
    ///
    /// Literal segments are compared on the raw bytes and only parameters are percent-decoded, each within its own
    /// segment, so an encoded slash (`%2F`) never reaches another route. A parameter that cannot be decoded fails the
    /// request whenever its path matches, whatever the method (Express's `decodeURIComponent` throws while matching);
    /// under a static mount it is a miss instead.
    public func resolve(method: String, path: String) -> RouteMatch {
        if preflight, method == "OPTIONS" { return .preflight }
        // Split on bytes into ranges: the server asks for the route several times per request, and splitting into
        // Characters or Strings dominated the profile.
        let bytes = path.utf8
        let end = bytes.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.endIndex
        guard bytes.startIndex < end, bytes[bytes.startIndex] == UInt8(ascii: "/") else { return .notFound }
        var parts: [Range<String.UTF8View.Index>] = []
        parts.reserveCapacity(8)
        var start = bytes.index(after: bytes.startIndex)
        var cursor = start
        while cursor < end {
            if bytes[cursor] == UInt8(ascii: "/") {
                parts.append(start..<cursor)
                start = bytes.index(after: cursor)
            }
            cursor = bytes.index(after: cursor)
        }
        parts.append(start..<end)
        if options.trailingSlash, parts.count > 1, parts[parts.count - 1].isEmpty { parts.removeLast() }
        if parts.count == 1, parts[0].isEmpty { parts.removeAll() }
        let headAsGet = options.headAsGet && method == "HEAD"
        var best: (index: Int, parameters: [String: String])?
        var undecodable = false
        for index in routes.indices {
            let route = routes[index]
            guard route.segments.count == parts.count, matchesLiterals(route, parts, bytes) else { continue }
            let methodMatches = route.method == method || (headAsGet && route.method == "GET")
            // Only a route whose method matches needs its values; any matching path checks that they decode.
            var values: [String: String] = [:]
            var decoded = true
            for (segment, range) in zip(route.segments, parts) {
                guard case .parameter(let name) = segment else { continue }
                let raw = bytes[range]
                guard raw.contains(UInt8(ascii: "%")) else {
                    if methodMatches { values[name] = String(Substring(raw)) }
                    continue
                }
                guard let value = String(Substring(raw)).removingPercentEncoding else {
                    decoded = false
                    break
                }
                values[name] = value
            }
            guard decoded else {
                if !route.isStatic { undecodable = true }
                continue
            }
            guard methodMatches else { continue }
            if let current = best, routes[current.index].literalCount >= route.literalCount { continue }
            best = (index, values)
        }
        if undecodable { return .undecodableParameter }
        guard let best else { return .notFound }
        return .endpoint(route: best.index, contractID: routes[best.index].contractID, parameters: best.parameters)
    }

    private func matchesLiterals(_ route: Route, _ parts: [Range<String.UTF8View.Index>], _ bytes: String.UTF8View) -> Bool {
        for (segment, range) in zip(route.segments, parts) {
            switch segment {
            case .parameter:
                if range.isEmpty { return false }
            case .literal(let literal):
                let part = bytes[range]
                guard part.count == literal.count else { return false }
                if options.caseInsensitive {
                    guard zip(part, literal).allSatisfy({ Self.lower($0) == $1 }) else { return false }
                } else {
                    guard part.elementsEqual(literal) else { return false }
                }
            }
        }
        return true
    }

    /// The contract's id for a request, as the journal and fault selectors name it.
    public func contractID(method: String, path: String) -> String? {
        resolve(method: method, path: path).contractID
    }

    // MARK: - Compiling

    /// A contract's `x-also-at` templates with where each is written; unreadable entries are left out (lint reports them).
    static func alternatives(of contract: Contract) -> [(template: PathTemplate, pointer: String)] {
        guard let items = contract.source["x-also-at"]?.arrayValue else { return [] }
        return items.enumerated().compactMap { i, item in
            guard let text = item.stringValue, let template = PathTemplate(text),
                Set(template.parameterNames) == Set(contract.path.parameterNames) else { return nil }
            return (template, JSONPointer.appending("/x-also-at", i))
        }
    }

    private static func fold(_ text: String, _ options: RoutingOptions) -> String {
        options.caseInsensitive ? String(decoding: text.utf8.map(lower), as: UTF8.self) : text
    }

    private static func lower(_ byte: UInt8) -> UInt8 {
        byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
    }

    /// Every reason `contracts` cannot be served: unreadable `x-also-at`, colliding routes, unknown `x-state` actions and
    /// stateless contracts without a success example; one problem each, with the file and pointer.
    static func problems(contracts: [Contract], service: ServiceFile, display: (URL) -> String) -> [LintProblem] {
        var problems: [LintProblem] = []
        var seen: [String: (contract: Contract, pointer: String)] = [:]
        for contract in contracts {
            let file = display(contract.file)
            if let value = contract.source["x-also-at"] {
                if let items = value.arrayValue {
                    for (i, item) in items.enumerated() {
                        let at = JSONPointer.appending("/x-also-at", i)
                        guard let text = item.stringValue, let template = PathTemplate(text) else {
                            problems.append(LintProblem(file: file, pointer: at,
                                message: "x-also-at lists path templates such as \"/api/admin/v1/announcements/{id}\", found \(SchemaValidator.describe(item))"))
                            continue
                        }
                        if Set(template.parameterNames) != Set(contract.path.parameterNames) {
                            problems.append(LintProblem(file: file, pointer: at,
                                message: "\(text) must have the same path parameters as \(contract.pathTemplate) (\(contract.path.parameterNames.map { "{\($0)}" }.joined(separator: ", ")))"))
                        }
                    }
                } else {
                    problems.append(LintProblem(file: file, pointer: "/x-also-at",
                        message: "x-also-at must be an array of path templates, found \(SchemaValidator.describe(value))"))
                }
            }
            let templates = [(contract.path, "/path", false)] + alternatives(of: contract).map { ($0.template, $0.pointer, true) }
            for (template, pointer, isAlternative) in templates {
                let shape = contract.method + " /" + template.segments.map { segment -> String in
                    if case .literal(let text) = segment { return fold(text, service.routing) } else { return "{}" }
                }.joined(separator: "/")
                if let first = seen[shape] {
                    // Two contracts' own paths with the very same text are already reported by the uniqueness check.
                    let exact = !isAlternative && first.pointer == "/path" && first.contract.path.segments.map(\.shapeText) == template.segments.map(\.shapeText)
                    if !exact {
                        problems.append(LintProblem(file: file, pointer: pointer,
                            message: "\(contract.method) \(template.text) collides with \(first.contract.method) \(first.contract.pathTemplate) of \(display(first.contract.file))\(first.pointer == "/path" ? "" : " (\(first.pointer))"): a request could not tell them apart"))
                    }
                } else {
                    seen[shape] = (contract, pointer)
                }
            }
            if let state = contract.source["x-state"] {
                if let name = state["action"]?.stringValue {
                    if EndpointAction(rawValue: name) == nil {
                        problems.append(LintProblem(file: file, pointer: "/x-state/action",
                            message: "unknown x-state action \"\(name)\"; the model knows: \(EndpointAction.allCases.map(\.rawValue).joined(separator: ", "))"))
                    }
                } else {
                    problems.append(LintProblem(file: file, pointer: state.objectValue == nil ? "/x-state" : "/x-state/action",
                        message: "x-state must be an object with an action (\(EndpointAction.allCases.map(\.rawValue).joined(separator: ", ")))"))
                }
            } else if EndpointAction.of(contract) == nil,
                !contract.responses.contains(where: { (200..<300).contains($0.status) && !$0.examples.isEmpty })
            {
                problems.append(LintProblem(file: file, pointer: "/responses",
                    message: "the contract has no x-state, so it is served from its examples, but it has no success (2xx) example to answer with"))
            }
        }
        return problems
    }
}

extension PathTemplate.Segment {
    /// The segment as a route shape compares it: a literal's text, any parameter as `{}`.
    fileprivate var shapeText: String {
        if case .literal(let text) = self { return text }
        return "{}"
    }
}
