import ScenarioEngine

/// How a session failed: the check that failed first, the rule it belongs to, and the check's key the shrinker keeps.
public struct SessionFailure: Sendable, Equatable {
    /// The model rule of the first failed expectation.
    public var rule: ModelRule
    /// Rule and failed check without values or request numbers: two failures with the same signature broke the same check.
    public var signature: String
    /// The failure's first line as `spotcheck run` prints it.
    public var headline: String
    /// The whole failure as `spotcheck run` prints it.
    public var message: String

    /// The failure of `scenario`'s step, classified against the steps the model wrote. The engine lists what the client
    /// sent before what it showed (a wrong body or an extra call explains the rest), so the first mismatch is the cause.
    public init(_ failure: ScenarioFailure, steps: [ModelledStep]) {
        let kind = Self.kind(of: failure, steps: steps)
        let first = failure.mismatches.first
        rule = Self.rule(subject: first?.subject ?? "client", actual: first?.actual ?? "", kind: kind)
        signature = Self.signature(first?.subject ?? "client", rule: rule)
        headline = failure.headline
        message = failure.message
    }

    /// The signature of every expectation that failed in `result`, in any step: what "the same check still fails" looks for.
    public static func checks(of result: ScenarioResult, steps: [ModelledStep]) -> Set<String> {
        var out: Set<String> = []
        let all = result.failures.isEmpty ? (result.failure.map { [$0] } ?? []) : result.failures
        for failure in all {
            let kind = kind(of: failure, steps: steps)
            for m in failure.mismatches { out.insert(signature(m.subject, rule: rule(subject: m.subject, actual: m.actual, kind: kind))) }
        }
        return out
    }

    static func kind(of failure: ScenarioFailure, steps: [ModelledStep]) -> ModelledStep.Kind? {
        failure.stepNumber.flatMap { n in steps.indices.contains(n - 1) ? steps[n - 1].kind : nil }
    }

    /// Request numbers (#3) and quoted values vary while shrinking; the check that failed does not.
    static func signature(_ subject: String, rule: ModelRule) -> String {
        "\(rule.rawValue): " + subject.split(separator: " ").filter { !$0.hasPrefix("#") }.joined(separator: " ")
    }

    /// Which rule a failed check belongs to, given the kind of step it failed in.
    static func rule(subject: String, actual: String, kind: ModelledStep.Kind?) -> ModelRule {
        // Whatever a list step got wrong, the list rule is the one it checks.
        if case .list? = kind { return .listWithPhotos }
        if subject.hasPrefix("requests") || subject.hasPrefix("calls to") || subject.hasPrefix("call order") {
            switch kind {
            case .read?: return .detailsLoadError
            case .rejectedSubmit?: return .noSendWhileInvalid
            case .edit?, .cancel?, .idle?: return .noSendWithoutTap
            default: return .twoStepSubmission
            }
        }
        // "create request body" says no create was sent to check: a missing request, not a wrong body.
        if subject.hasPrefix("create request body") { return .twoStepSubmission }
        if subject.hasPrefix("sent") { return .bodyCarriesCurrentInputs }
        if subject.hasPrefix("input") {
            if case .edit(_, limited: true)? = kind { return .rewardLimit }
            return .inputsSurvive
        }
        if subject.hasPrefix("analytics") {
            if case .attempt(true, true)? = kind { return .analyticsAfterTryAgain }
            return .analyticsOnlyOnSuccess
        }
        // A wrong state or error text is the load-error rule; a wrong presented value is the presentation rule.
        if subject.hasPrefix("details state") || subject.hasPrefix("details message") { return .detailsLoadError }
        if subject.hasPrefix("details") { return .detailsPresentation }
        if subject.hasPrefix("listed") { return .listWithPhotos }
        if subject.hasPrefix("summary password") || subject.hasPrefix("photo upload") || subject.hasPrefix("Basic auth") { return .passwordOpensPhoto }
        if subject.hasPrefix("alert") { return .alertFitsCause }
        if subject.hasPrefix("field messages") {
            if case .edit? = kind { return .validationOnlyOnContinue }
            return .validationMessages
        }
        if subject.hasPrefix("screen") { return .stayOnForm }
        if subject.hasPrefix("outcome") {
            switch kind {
            case .read?: return .detailsLoadError
            case .rejectedSubmit?: return .noSendWhileInvalid
            case .attempt?: return actual.hasPrefix("invalid") ? .validationMessages : .twoStepSubmission
            default: return .twoStepSubmission
            }
        }
        return .twoStepSubmission
    }
}
