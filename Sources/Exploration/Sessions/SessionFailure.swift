import ScenarioEngine

/// How a session failed: the rule it broke and a signature the shrinker keeps while it simplifies.
public struct SessionFailure: Sendable, Equatable {
    /// The model rule the first failed expectation belongs to.
    public var rule: ModelRule
    /// Rule and failed check without values or request numbers: two failures with the same signature fail "the same way".
    public var signature: String
    /// The failure's first line as `spotcheck run` prints it.
    public var headline: String
    /// The whole failure as `spotcheck run` prints it.
    public var message: String

    /// The failure of `scenario`'s step, classified against the steps the model wrote.
    public init(_ failure: ScenarioFailure, steps: [ModelledStep]) {
        let kind = failure.stepNumber.flatMap { n in steps.indices.contains(n - 1) ? steps[n - 1].kind : nil }
        // A wrong create body explains whatever the server then did with it (a 400, a failure where success was due),
        // so it names the rule when it is among the step's deviations; otherwise the first deviation does.
        let chosen = failure.mismatches.first { Self.rule(subject: $0.subject, actual: $0.actual, kind: kind) == .bodyCarriesCurrentInputs }
            ?? failure.mismatches.first
        let subject = chosen?.subject ?? "client"
        rule = Self.rule(subject: subject, actual: chosen?.actual ?? "", kind: kind)
        // Request numbers (#3) and quoted values vary while shrinking; the check that failed does not.
        let plainSubject = subject.split(separator: " ").filter { !$0.hasPrefix("#") }.joined(separator: " ")
        signature = "\(rule.rawValue): \(plainSubject)"
        headline = failure.headline
        message = failure.message
    }

    /// Which rule a failed check belongs to, given the kind of step it failed in.
    static func rule(subject: String, actual: String, kind: ModelledStep.Kind?) -> ModelRule {
        if subject.hasPrefix("requests") || subject.hasPrefix("calls to") || subject.hasPrefix("call order") {
            switch kind {
            case .rejectedSubmit?: return .noSendWhileInvalid
            case .edit?, .cancel?, .idle?: return .noSendWithoutTap
            default: return .twoStepSubmission
            }
        }
        // "create request body" says no create was sent to check: a missing request, not a wrong body.
        if subject.hasPrefix("create request body") { return .twoStepSubmission }
        if subject.hasPrefix("sent") { return .bodyCarriesCurrentInputs }
        if subject.hasPrefix("input") {
            if case .edit(let field)? = kind, field == "reward" { return .rewardLimit }
            return .inputsSurvive
        }
        if subject.hasPrefix("analytics") { return .analyticsOnlyOnSuccess }
        if subject.hasPrefix("summary password") || subject.hasPrefix("photo upload") || subject.hasPrefix("Basic auth") { return .passwordOpensPhoto }
        if subject.hasPrefix("alert") { return .alertFitsCause }
        if subject.hasPrefix("field messages") { return .validationMessages }
        if subject.hasPrefix("screen") { return .stayOnForm }
        if subject.hasPrefix("outcome") {
            switch kind {
            case .rejectedSubmit?: return .noSendWhileInvalid
            case .attempt?: return actual.hasPrefix("invalid") ? .validationMessages : .twoStepSubmission
            default: return .twoStepSubmission
            }
        }
        return .twoStepSubmission
    }
}
