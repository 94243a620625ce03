import Foundation

/// The routes an endpoint answers besides its own path (`x-also-at`, e.g. a router mounted twice), compared for a client
/// of the old version: a request that reached an endpoint under a mount and now reaches nothing is breaking.
extension ContractDiff {
    /// The method and path shape of every route of `set`, contracts' own paths and `x-also-at` alike.
    static func routeKeys(_ set: ContractSet) -> Set<String> {
        Set(set.routes.routes.map { routeKey(method: $0.method, template: $0.template) })
    }

    static func routeKey(method: String, template: PathTemplate) -> String {
        method + " " + template.segments.map { segment -> String in
            if case .literal(let literal) = segment { return literal } else { return "{}" }
        }.joined(separator: "/")
    }

    /// Each `x-also-at` route of one version that no route of the other answers, by method and path shape.
    mutating func compareMounts() {
        let oldKeys = Self.routeKeys(old), newKeys = Self.routeKeys(new)
        for contract in old.contracts {
            for (template, pointer) in RouteTable.alternatives(of: contract)
            where !newKeys.contains(Self.routeKey(method: contract.method, template: template)) {
                record(.breaking, .routeRemoved, Site(contract: contract, pointer: pointer, isRequest: false),
                       "\(contract.method) \(template.text) no longer answers (it reached \(contract.id) through x-also-at)")
            }
        }
        for contract in new.contracts {
            for (template, pointer) in RouteTable.alternatives(of: contract)
            where !oldKeys.contains(Self.routeKey(method: contract.method, template: template)) {
                record(.compatible, .routeAdded, Site(contract: contract, pointer: pointer, isRequest: false),
                       "\(contract.method) \(template.text) now reaches \(contract.id) (x-also-at)")
            }
        }
    }
}
