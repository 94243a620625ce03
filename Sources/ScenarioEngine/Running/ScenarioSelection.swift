/// Which scenarios of a library a run includes: `--filter`, `--tag` and `--shard` combined.
public struct ScenarioSelection: Sendable {
    /// Case-insensitive text that must occur in the name or file name; empty means all.
    public var filters: [String]
    /// Tags of which a scenario must carry at least one; empty means all.
    public var tags: [String]
    /// The shard to run, if the suite is split.
    public var shard: Shard?

    /// A selection with these criteria.
    public init(filters: [String] = [], tags: [String] = [], shard: Shard? = nil) {
        self.filters = filters
        self.tags = tags
        self.shard = shard
    }

    /// Whether `scenario` is selected.
    public func includes(_ scenario: Scenario) -> Bool {
        if !filters.isEmpty {
            let haystack = [scenario.name.lowercased(), scenario.displayPath.lowercased()]
            guard filters.contains(where: { f in haystack.contains { $0.contains(f.lowercased()) } }) else { return false }
        }
        if !tags.isEmpty, !scenario.tags.contains(where: tags.contains) { return false }
        if let shard, !shard.contains(scenario.name) { return false }
        return true
    }

    /// The selected scenarios, in library order.
    public func apply(to scenarios: [Scenario]) -> [Scenario] { scenarios.filter(includes) }
}
