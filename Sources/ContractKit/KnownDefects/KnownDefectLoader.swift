import Foundation

/// Reads and lints `known-defects.json` beside the contracts; every entry must name a documented answer (a contract's
/// example, or a layer of the service with the trigger that sets it off) and a reason.
enum KnownDefectLoader {
    static let topKeys = ["$comment", "defects"]
    static let entryKeys = ["id", "contract", "example", "service", "reason", "trigger", "actual", "expires", "$comment"]
    static let answerKeys = ["status", "code", "message", "requestIdHeader"]

    /// The entries of `value` (the parsed file) checked against `contracts`; problems for everything that is wrong.
    static func read(_ value: JSONValue, file: String, contracts: [Contract], problems: inout [LintProblem]) -> [KnownDefect] {
        guard let top = ObjectReader(value, file: file, pointer: "", what: "the known-defects file", problems: &problems) else { return [] }
        top.checkKeys(allowed: topKeys, required: ["defects"], what: "the known-defects file", problems: &problems)
        guard let list = top.object["defects"] else { return [] }
        guard let entries = list.arrayValue else {
            problems.append(LintProblem(file: file, pointer: "/defects", message: "defects must be an array of entries, found \(SchemaValidator.describe(list))"))
            return []
        }
        var defects: [KnownDefect] = []
        var seen: Set<String> = []
        for (index, entry) in entries.enumerated() {
            let pointer = "/defects/\(index)"
            guard let reader = ObjectReader(entry, file: file, pointer: pointer, what: "a known defect", problems: &problems) else { continue }
            let serviceWide = reader.object["service"] != nil
            let required = serviceWide ? ["id", "service", "trigger", "reason", "actual"] : ["id", "contract", "example", "reason", "actual"]
            reader.checkKeys(allowed: entryKeys, required: required, what: "a known defect", problems: &problems)
            let id = reader.string("id", problems: &problems)
            let contractID = reader.string("contract", problems: &problems)
            let example = reader.string("example", problems: &problems)
            if serviceWide, reader.object["contract"] != nil || reader.object["example"] != nil {
                problems.append(LintProblem(file: file, pointer: reader.at(reader.object["contract"] != nil ? "contract" : "example"),
                    message: "an entry names either a service layer (service) or one documented answer (contract and example), not both"))
            }
            var layer: KnownDefect.ServiceLayer?
            if let name = reader.string("service", problems: &problems) {
                layer = KnownDefect.ServiceLayer(rawValue: name)
                if layer == nil {
                    problems.append(LintProblem(file: file, pointer: reader.at("service"),
                        message: "unknown service layer \"\(name)\"; known: \(KnownDefect.ServiceLayer.allCases.map(\.rawValue).joined(separator: ", "))"))
                }
            }
            let reason = reader.string("reason", problems: &problems)
            let expires = reader.string("expires", problems: &problems)
            if let id {
                if !seen.insert(id).inserted {
                    problems.append(LintProblem(file: file, pointer: reader.at("id"), message: "the id \"\(id)\" is used by an earlier entry; ids must be unique"))
                }
            }
            if reader.object["reason"] != nil, reason?.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty ?? false {
                problems.append(LintProblem(file: file, pointer: reader.at("reason"),
                    message: "reason must say why the server's answer is tolerated (a ticket, who decided, until when); found an empty text"))
            }
            if let expires, !CalendarDate.isValid(expires) {
                problems.append(LintProblem(file: file, pointer: reader.at("expires"), message: "expires must be a date YYYY-MM-DD, found \"\(expires)\""))
            }
            var trigger: KnownDefect.Trigger?
            if let name = reader.string("trigger", problems: &problems) {
                trigger = KnownDefect.Trigger(rawValue: name)
                if trigger == nil {
                    problems.append(LintProblem(file: file, pointer: reader.at("trigger"),
                        message: "unknown trigger \"\(name)\"; known: \(KnownDefect.Trigger.allCases.map(\.rawValue).joined(separator: ", "))"))
                }
            }
            if let layer, let trigger, !layer.triggers.contains(trigger) {
                problems.append(LintProblem(file: file, pointer: reader.at("trigger"),
                    message: "the trigger \"\(trigger.rawValue)\" is not a failure of the \(layer.rawValue) layer; its triggers: \(layer.triggers.map(\.rawValue).joined(separator: ", "))"))
            }
            if !serviceWide, let contractID, let example {
                if let contract = contracts.first(where: { $0.id == contractID }) {
                    let examples = contract.responses.flatMap(\.examples).map(\.name)
                    if !examples.contains(example) {
                        problems.append(LintProblem(file: file, pointer: reader.at("example"),
                            message: "contract \(contractID) has no response example named \"\(example)\"; it has: \(examples.joined(separator: ", "))"))
                    }
                } else {
                    problems.append(LintProblem(file: file, pointer: reader.at("contract"),
                        message: "no contract has the id \"\(contractID)\"; known: \(contracts.map(\.id).joined(separator: ", "))"))
                }
            }
            let actual = reader.object["actual"].flatMap { readAnswer($0, file: file, pointer: reader.at("actual"), problems: &problems) }
            let scope: KnownDefect.Scope
            if serviceWide {
                guard let layer else { continue }
                scope = .service(layer)
            } else {
                guard let contractID, let example else { continue }
                scope = .example(contractID: contractID, example: example)
            }
            guard let id, let reason, let actual else { continue }
            defects.append(KnownDefect(id: id, scope: scope, reason: reason, trigger: trigger, actual: actual, expires: expires, file: file,
                                       pointer: pointer))
        }
        return defects
    }

    private static func readAnswer(_ value: JSONValue, file: String, pointer: String, problems: inout [LintProblem]) -> KnownDefect.Answer? {
        guard let reader = ObjectReader(value, file: file, pointer: pointer, what: "the actual answer", problems: &problems) else { return nil }
        reader.checkKeys(allowed: answerKeys, required: ["status"], what: "the actual answer", problems: &problems)
        let status = reader.int("status", minimum: 100, problems: &problems)
        if let status, status > 599 {
            problems.append(LintProblem(file: file, pointer: reader.at("status"), message: "status must be 100...599, found \(status)"))
            return nil
        }
        let code = reader.string("code", problems: &problems)
        let message = reader.string("message", problems: &problems)
        let header = reader.bool("requestIdHeader", problems: &problems) ?? true
        guard let status else { return nil }
        return KnownDefect.Answer(status: status, code: code, message: message, requestIdHeader: header)
    }
}
