/// The profile's word on an app that stops the user before the step a scenario reaches (`stoppedAt`): the seeds' iOS
/// profile allows a report without a photo to stop at the photo step and holds a report without a location to reach the
/// contact step (`flow.earlierStops`).
enum EarlierStopRule {
    /// What the profile says about one stop.
    enum Verdict: Equatable {
        /// The profile allows the stop; the sentence names the reading for the report.
        case allowed(reading: String)
        /// The profile contradicts the stop; the sentence says which source lines.
        case contradicted(explanation: String)
    }

    /// Judges `stop` for a scenario whose report is `report`, by `flow`'s rules: the first rule for the stop's step whose
    /// fields the report all lacks decides; with none, the stop is contradicted.
    static func judge(_ stop: EarlierStop, report: ReportData, flow: ClientProfile.Flow) -> Verdict {
        let said = "the app stopped the user at step \(stop.step) with \(ExpectationChecker.quote(stop.message))"
        let rules = flow.earlierStops.rules
        if let rule = rules.first(where: { number(of: $0.step, in: flow) == stop.step && applies($0, to: report) }) {
            return rule.allowed ? .allowed(reading: "\(said) because \(rule.because)") : .contradicted(explanation: "\(said) because \(rule.because)")
        }
        // Say what would have allowed a stop, where the report lacks it: the stop came at the wrong step.
        let elsewhere = rules.first { $0.allowed && applies($0, to: report) }
        let missing = elsewhere.map { rule in
            let names = rule.whenMissing.joined(separator: " and ")
            return "only the \(names) \(rule.whenMissing.count == 1 ? "is" : "are") missing, which stops step \(number(of: rule.step, in: flow).map(String.init) ?? rule.step)"
        } ?? flow.earlierStops.nothingMissing
        return .contradicted(explanation: "\(said), but the report is complete for step \(stop.step) (\(missing))")
    }

    /// The step's number as the protocol counts them (1 for the flow's first).
    static func number(of step: String, in flow: ClientProfile.Flow) -> Int? {
        flow.steps.firstIndex { $0.id == step }.map { $0 + 1 }
    }

    /// Whether the report lacks every field the rule is about.
    static func applies(_ rule: ClientProfile.EarlierStops.Rule, to report: ReportData) -> Bool {
        rule.whenMissing.allSatisfy { $0 == "photo" ? report.photo == nil : report.fields[$0] == nil }
    }
}
