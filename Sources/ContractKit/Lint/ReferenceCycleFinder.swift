/// Finds `$ref` chains that come back to where they started on the same value (A refs B refs A, a schema whose `allOf`
/// refs itself, `{"$ref": "#"}`): the validator can never finish such a schema, so every value would be reported as a
/// violation. A reference reached through `properties` or `items` is recursion into a smaller value, which is fine.
struct ReferenceCycleFinder {
    /// One `$ref` member: the document it is in and the pointer to the `$ref` itself.
    struct Site: Hashable, Comparable {
        let key: String
        let pointer: String

        static func < (a: Site, b: Site) -> Bool { (a.key, a.pointer) < (b.key, b.pointer) }
    }

    let documents: [String: JSONValue]
    let validator: SchemaValidator

    /// Each cycle once, as the `$ref`s it passes through in order, starting from the first in (file, pointer) order.
    func cycles() -> [[Site]] {
        var sites: [Site] = []
        for key in documents.keys.sorted() { Self.collectSites(in: documents[key]!, key: key, pointer: "", into: &sites) }
        var finished: Set<Site> = []
        var found: [[Site]] = []
        var seen: Set<[Site]> = []
        for site in sites where !finished.contains(site) {
            var path: [Site] = []
            var onPath: Set<Site> = []
            visit(site, path: &path, onPath: &onPath, finished: &finished) { cycle in
                let first = cycle.indices.min { cycle[$0] < cycle[$1] }!
                let rotated = Array(cycle[first...] + cycle[..<first])
                if seen.insert(rotated).inserted { found.append(rotated) }
            }
        }
        return found
    }

    private func visit(_ site: Site, path: inout [Site], onPath: inout Set<Site>, finished: inout Set<Site>,
                       report: ([Site]) -> Void) {
        path.append(site)
        onPath.insert(site)
        for next in successors(of: site) {
            if onPath.contains(next) {
                report(Array(path[path.firstIndex(of: next)!...]))
            } else if !finished.contains(next) {
                visit(next, path: &path, onPath: &onPath, finished: &finished, report: report)
            }
        }
        path.removeLast()
        onPath.remove(site)
        finished.insert(site)
    }

    /// The `$ref`s evaluated on the same value right after the one at `site` is followed.
    func successors(of site: Site) -> [Site] {
        guard let root = documents[site.key], let ref = JSONPointer.resolve(site.pointer, in: root)?.stringValue,
            let (_, scope) = validator.resolve(ref, in: SchemaValidator.Scope(key: site.key, root: root))
        else { return [] }
        let fragment = SchemaReference.split(ref).fragment
        guard let target = JSONPointer.resolve(fragment, in: scope.root) else { return [] }
        var out: [Site] = []
        Self.sameValueSites(in: target, key: scope.key, pointer: fragment, into: &out)
        return out
    }

    /// The `$ref`s of `schema` that apply to the value `schema` checks: its own, and those under `allOf`, `anyOf`,
    /// `oneOf` and `not`.
    private static func sameValueSites(in schema: JSONValue, key: String, pointer: String, into out: inout [Site]) {
        guard case .object(let object) = schema else { return }
        if object["$ref"]?.stringValue != nil { out.append(Site(key: key, pointer: JSONPointer.appending(pointer, "$ref"))) }
        for keyword in ["allOf", "anyOf", "oneOf"] {
            for (i, item) in (object[keyword]?.arrayValue ?? []).enumerated() {
                sameValueSites(in: item, key: key, pointer: JSONPointer.appending(JSONPointer.appending(pointer, keyword), i), into: &out)
            }
        }
        if let not = object["not"] { sameValueSites(in: not, key: key, pointer: JSONPointer.appending(pointer, "not"), into: &out) }
    }

    /// Every `$ref` member with a string value anywhere in `value`.
    static func collectSites(in value: JSONValue, key: String, pointer: String, into out: inout [Site]) {
        switch value {
        case .object(let object):
            for (name, member) in object {
                let at = JSONPointer.appending(pointer, name)
                if name == "$ref", member.stringValue != nil { out.append(Site(key: key, pointer: at)) } else { collectSites(in: member, key: key, pointer: at, into: &out) }
            }
        case .array(let items):
            for (i, item) in items.enumerated() { collectSites(in: item, key: key, pointer: JSONPointer.appending(pointer, i), into: &out) }
        default:
            break
        }
    }
}
