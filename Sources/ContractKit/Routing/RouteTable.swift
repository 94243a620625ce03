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

    /// What matching reads of a route, kept apart from `Route` so the per-request loop copies nothing it does not use.
    private struct Matcher: Sendable {
        let method: String
        /// Each segment's literal bytes (lower-cased when routing ignores case); nil for a parameter.
        let literals: [[UInt8]?]
        /// The parameters' positions and names.
        let parameters: [(position: Int, name: String)]
        let literalCount: Int
        let isStatic: Bool
    }

    private let matchers: [Matcher]
    /// Route indices by segment count: a request is compared only with routes of its length.
    private let candidates: [[Int]]

    /// The routes, contracts in file order, each contract's own path before its alternatives.
    public let routes: [Route]
    /// The options matching follows.
    public let options: RoutingOptions
    /// Whether `OPTIONS` is a preflight whatever the path.
    public let preflight: Bool
    /// Shared by every copy of this table and by no other table, so a match worked out once can be trusted by a later
    /// layer only when it came from the very table that layer routes with (`identity`).
    private let token = Token()
    private final class Token: Sendable {}

    /// The same for every copy of this table and different for any other table.
    public var identity: ObjectIdentifier { ObjectIdentifier(token) }

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
        matchers = routes.map { route in
            Matcher(method: route.method,
                    literals: route.segments.map { if case .literal(let bytes) = $0 { return bytes } else { return nil } },
                    parameters: route.segments.enumerated().compactMap { position, segment in
                        if case .parameter(let name) = segment { return (position, name) } else { return nil }
                    },
                    literalCount: route.literalCount, isStatic: route.isStatic)
        }
        var candidates = Array(repeating: [Int](), count: (routes.map(\.segments.count).max() ?? 0) + 1)
        for (index, route) in routes.enumerated() { candidates[route.segments.count].append(index) }
        self.candidates = candidates
    }

    /// The route for `method` (upper case) and `path` (a query string or fragment is ignored).
    ///
    /// Literal segments are compared on the raw bytes and only parameters are percent-decoded, each within its own
    /// segment, so an encoded slash (`%2F`) never reaches another route. A parameter that cannot be decoded fails the
    /// request whenever its path matches, whatever the method (Express's `decodeURIComponent` throws while matching);
    /// under a static mount it is a miss instead.
    public func resolve(method: String, path: String) -> RouteMatch {
        if preflight, method == "OPTIONS" { return .preflight }
        var path = path
        // Native strings are contiguous UTF-8: matching on a byte buffer with integer offsets is what keeps the
        // per-request cost below the hard-coded router's (Character or String splitting dominated earlier profiles).
        return path.withUTF8 { resolve(method: method, bytes: $0) }
    }

    private func resolve(method: String, bytes: UnsafeBufferPointer<UInt8>) -> RouteMatch {
        var end = 0
        while end < bytes.count, bytes[end] != UInt8(ascii: "?"), bytes[end] != UInt8(ascii: "#") { end += 1 }
        guard end > 0, bytes[0] == UInt8(ascii: "/") else { return .notFound }
        var slashes = 0
        for i in 0..<end where bytes[i] == UInt8(ascii: "/") { slashes += 1 }
        // Segment bounds as (start, end) offsets, on the stack: two arrays per match were two allocations per request.
        return withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * slashes) { bounds in
            let starts = UnsafeMutableBufferPointer(rebasing: bounds[0..<slashes])
            let ends = UnsafeMutableBufferPointer(rebasing: bounds[slashes...])
            var count = 0
            var start = 1
            for i in 1..<end where bytes[i] == UInt8(ascii: "/") {
                starts[count] = start
                ends[count] = i
                count += 1
                start = i + 1
            }
            starts[count] = start
            ends[count] = end
            count += 1
            if options.trailingSlash, count > 1, starts[count - 1] == ends[count - 1] { count -= 1 }
            if count == 1, starts[0] == ends[0] { count = 0 }
            return resolve(method: method, bytes: bytes, starts: UnsafeBufferPointer(rebasing: starts[0..<count]),
                           ends: UnsafeBufferPointer(rebasing: ends[0..<count]))
        }
    }

    private func resolve(method: String, bytes: UnsafeBufferPointer<UInt8>, starts: UnsafeBufferPointer<Int>,
                         ends: UnsafeBufferPointer<Int>) -> RouteMatch {
        let count = starts.count
        guard count < candidates.count else { return .notFound }
        let headAsGet = options.headAsGet && method == "HEAD"
        var best = -1
        var bestValues: [String: String] = [:]
        var undecodable = false
        for index in candidates[count] {
            guard matchesLiterals(matchers[index].literals, starts, ends, bytes) else { continue }
            let routeMethod = matchers[index].method
            let methodMatches = routeMethod == method || (headAsGet && routeMethod == "GET")
            // Only a route whose method matches needs its values; any matching path checks that they decode.
            var values: [String: String] = [:]
            var decoded = true
            for (position, name) in matchers[index].parameters {
                let segment = UnsafeBufferPointer(rebasing: bytes[starts[position]..<ends[position]])
                let text = String(decoding: segment, as: UTF8.self)
                guard segment.contains(UInt8(ascii: "%")) else {
                    if methodMatches { values[name] = text }
                    continue
                }
                guard let value = text.removingPercentEncoding else {
                    decoded = false
                    break
                }
                values[name] = value
            }
            guard decoded else {
                if !matchers[index].isStatic { undecodable = true }
                continue
            }
            guard methodMatches, best < 0 || matchers[best].literalCount < matchers[index].literalCount else { continue }
            best = index
            bestValues = values
        }
        if undecodable { return .undecodableParameter }
        guard best >= 0 else { return .notFound }
        return .endpoint(route: best, contractID: routes[best].contractID, parameters: bestValues)
    }

    private func matchesLiterals(_ literals: [[UInt8]?], _ starts: UnsafeBufferPointer<Int>, _ ends: UnsafeBufferPointer<Int>,
                                 _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for position in 0..<literals.count {
            let start = starts[position], end = ends[position]
            guard let literal = literals[position] else {
                // A parameter matches any non-empty segment.
                if start == end { return false }
                continue
            }
            guard end - start == literal.count else { return false }
            var i = 0
            if options.caseInsensitive {
                while i < literal.count {
                    if Self.lower(bytes[start + i]) != literal[i] { return false }
                    i += 1
                }
            } else {
                while i < literal.count {
                    if bytes[start + i] != literal[i] { return false }
                    i += 1
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
                                message: "x-also-at lists path templates such as \"/v2/items/{id}\", found \(SchemaValidator.describe(item))"))
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
            // An x-state's own problems (its action among them) are the state declaration's lint (StateDeclarationReader).
            if contract.source["x-state"] == nil,
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
