/// Finds `$ref` fan-out: schemas whose references, followed on the same value (`$ref`, `allOf`, `anyOf`, `oneOf`,
/// `not`), expand into more paths than any contract needs. 41 schemas each an `allOf` of two refs to the next make 2^40
/// paths, and validating one example against them never ends; the count itself is linear, memoised per `$ref`.
struct ReferenceFanOutFinder {
    /// More same-value `$ref` expansions than this from one `$ref` is a fan-out problem (real contracts need dozens).
    static let limit = 10_000

    let cycles: ReferenceCycleFinder

    /// The first `$ref` (in file, pointer order) whose expansion passes `limit`, with the count (capped just past it).
    func fanOut() -> (site: ReferenceCycleFinder.Site, count: Int)? {
        var sites: [ReferenceCycleFinder.Site] = []
        for key in cycles.documents.keys.sorted() {
            ReferenceCycleFinder.collectSites(in: cycles.documents[key]!, key: key, pointer: "", into: &sites)
        }
        var memo: [ReferenceCycleFinder.Site: Int] = [:]
        var onPath: Set<ReferenceCycleFinder.Site> = []
        for site in sites.sorted() {
            let count = expansions(site, memo: &memo, onPath: &onPath)
            if count > Self.limit { return (site, count) }
        }
        return nil
    }

    /// 1 + the expansions of every `$ref` reached from `site` on the same value; a cycle counts nothing more (it is
    /// reported by `ReferenceCycleFinder`), and sums stop just past the limit so they cannot overflow.
    private func expansions(_ site: ReferenceCycleFinder.Site, memo: inout [ReferenceCycleFinder.Site: Int],
                            onPath: inout Set<ReferenceCycleFinder.Site>) -> Int {
        if let known = memo[site] { return known }
        guard onPath.insert(site).inserted else { return 0 }
        var total = 1
        for next in cycles.successors(of: site) {
            total = min(Self.limit + 1, total + expansions(next, memo: &memo, onPath: &onPath))
        }
        onPath.remove(site)
        memo[site] = total
        return total
    }
}
