extension ClientProfile {
    /// The first part where this profile's rules differ from `other`'s, for a person, or `nil` when both judge alike
    /// (names, summaries, citations' documents and library folders aside). A model built from one profile (the
    /// explorer's) can serve another only when this is `nil`.
    public func judgingDifference(from other: ClientProfile) -> String? {
        if flow.name != other.flow.name { return "its flow is \(flow.name), not \(other.flow.name)" }
        if flow != other.flow { return "the steps or the report of its flow \(flow.name) differ" }
        if inputs != other.inputs { return "its input rules differ" }
        if failures != other.failures { return "its failure feedback differs" }
        if success != other.success { return "what a success shows differs" }
        return nil
    }
}
