import ContractKit
import Foundation

/// Checks a client profile against the contracts and against itself: a rule the contracts make impossible (a sent
/// field the create refuses, a status its schema does not allow) and two rules of the profile that cannot both hold.
/// The loader already refuses a profile that is malformed; these are the problems of a well-formed one.
public enum ProfileLinter {
    /// Every problem of `profile` as `file:pointer: message`; `contracts`, when given, are the server it is checked against.
    public static func lint(_ profile: ClientProfile, contracts: ContractSet?) -> [LintProblem] {
        var problems = conflicts(in: profile)
        if let contracts { problems += impossible(in: profile, contracts: contracts) }
        return problems
    }

    /// Problems of a scenario judged by `profile`: it names another profile or flow (`profile`, `flow`); it types into,
    /// expects an input or a field message of, a field on no step of the profile's flow; or it takes a step the
    /// profile's failures do not offer (`cancel` without an affordance that keeps the user on the form, `retry` without
    /// one that sends again or retries the failed step).
    public static func problems(in scenario: Scenario, profile: ClientProfile) -> [ScenarioProblem] {
        let fields = Set(profile.flow.fields)
        var problems: [ScenarioProblem] = []
        if let named = scenario.profile, named != profile.name {
            problems.append(ScenarioProblem(
                file: scenario.displayPath, pointer: "/profile",
                message: "the scenario needs the profile \(named), but it is judged by \(profile.name) (\(profile.displayPath)); run it with --profile \(named)"))
        }
        if let named = scenario.flow, named != profile.flow.name {
            problems.append(ScenarioProblem(
                file: scenario.displayPath, pointer: "/flow",
                message: "the scenario needs the flow \(named), but the profile \(profile.name) has the flow \(profile.flow.name)"))
        }
        let effects = Set(profile.failures.affordances.map(\.does))
        func offered(_ action: ClientAction) -> (needs: String, kinds: [ClientProfile.Affordance.Effect])? {
            switch action {
            case .cancel: return ("a failure affordance that keeps the user on the form", [.stayOnForm])
            case .retry: return ("a failure affordance that sends again or retries the failed step", [.sendAgain, .retryFailedStep])
            default: return nil
            }
        }
        for step in scenario.steps {
            guard case .client(let action) = step.action, let need = offered(action), effects.isDisjoint(with: need.kinds) else { continue }
            let listed = profile.failures.affordances.map { "\($0.label) (\($0.does.rawValue))" }.joined(separator: ", ")
            problems.append(ScenarioProblem(
                file: scenario.displayPath, pointer: step.pointer + "/action",
                message: "\"\(action.name)\" needs \(need.needs) (\(need.kinds.map(\.rawValue).joined(separator: " or "))), which the profile \(profile.name) does not have; its affordances are: \(listed.isEmpty ? "none" : listed)"))
        }
        func check(_ field: String, at pointer: String) {
            guard !fields.contains(field) else { return }
            problems.append(ScenarioProblem(
                file: scenario.displayPath, pointer: pointer,
                message: "the field \"\(field)\" is on no step of the \(profile.flow.name) flow of the profile \(profile.name); its fields are: \(profile.flow.fields.joined(separator: ", "))"))
        }
        for step in scenario.steps {
            if case .client(.editField(let field, _)) = step.action { check(field, at: step.pointer + "/field") }
            for field in (step.expect.inputs ?? [:]).keys.sorted() { check(field, at: JSONPointer.appending(step.pointer + "/expect/inputs", field)) }
            for field in (step.expect.fieldErrors ?? [:]).keys.sorted() { check(field, at: JSONPointer.appending(step.pointer + "/expect/fields", field)) }
        }
        return problems
    }

    /// Rules the contracts make impossible: the create's request schema (of the report's first contract) refuses a
    /// field the profile sends, or does not allow its status.
    static func impossible(in profile: ClientProfile, contracts: ContractSet) -> [LintProblem] {
        func problem(_ pointer: String, _ message: String) -> LintProblem { LintProblem(file: profile.displayPath, pointer: pointer, message: message) }
        let report = profile.flow.report
        var problems: [LintProblem] = []
        let known = Set(contracts.contracts.map(\.id))
        for (i, id) in report.sends.enumerated() where !known.contains(id) {
            problems.append(problem("/flow/report/sends/\(i)", "unknown contract id \"\(id)\"; known ids: \(known.sorted().joined(separator: ", "))"))
        }
        guard let create = report.sends.first, let contract = contracts.contracts.first(where: { $0.id == create }),
              let body = contract.request.body else { return problems }
        let schema = UnusualValues(contracts: contracts).resolved(body)
        let properties = schema["properties"]?.objectValue ?? JSONObject()
        let closed = schema["additionalProperties"]?.boolValue == false
        for (i, value) in report.values.enumerated() {
            guard closed, properties[value.field] == nil else { continue }
            problems.append(problem("/flow/report/values/\(i)/field",
                                    "the profile sends \"\(value.field)\", which \(create)'s request schema refuses (no such property, and no others allowed); a client following this rule could never create a report"))
        }
        if let status = properties["status"].map({ UnusualValues(contracts: contracts).resolved($0) }), let allowed = status["enum"]?.arrayValue,
           !allowed.contains(.string(report.status)) {
            let listed = allowed.map { $0.serialized() }.joined(separator: ", ")
            problems.append(problem("/flow/report/status", "the status \"\(report.status)\" is not one \(create)'s request schema allows (\(listed))"))
        }
        return problems
    }

    /// Two rules of one field that cannot both hold: a value kept verbatim cannot be trimmed; a field limited to fewer
    /// characters than its digits rule requires can never be valid; a required field whose only group is optional.
    static func conflicts(in profile: ClientProfile) -> [LintProblem] {
        var problems: [LintProblem] = []
        for (i, input) in profile.inputs.enumerated() {
            func index(_ kind: ClientProfile.InputRule.Kind) -> Int? { input.rules.firstIndex { $0.kind == kind } }
            let at = "/inputs/\(i)/rules"
            if let trim = index(.trim), let verbatim = index(.verbatim) {
                problems.append(LintProblem(
                    file: profile.displayPath, pointer: "\(at)/\(verbatim)",
                    message: "\"\(input.field)\" is kept verbatim (\(input.rules[verbatim].source)) and trimmed (\(at)/\(trim): \(input.rules[trim].source)); a client cannot do both"))
            }
            if let digits = index(.digits), let limit = index(.maxLength), let min = input.rules[digits].min, let max = input.rules[limit].max, max < min {
                problems.append(LintProblem(
                    file: profile.displayPath, pointer: "\(at)/\(limit)/max",
                    message: "\"\(input.field)\" holds at most \(max) characters (\(input.rules[limit].source)) but needs at least \(min) digits (\(at)/\(digits): \(input.rules[digits].source)); no value can be valid"))
            }
        }
        return problems
    }
}
