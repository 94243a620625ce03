import ContractKit
import Foundation

/// Turns a profile file into a `ClientProfile`, reporting every problem with the file and JSON pointer, as contracts
/// and scenarios are linted. The checks here are those of the published schema (scenarios/schema/client-profile.schema.json)
/// plus the references between parts (a reading's feedback, a cause's readings) that a schema cannot express.
public struct ClientProfileParser: Sendable {
    /// A parser.
    public init() {}

    static let topLevelKeys = ["$schema", "profile", "summary", "authority", "library", "sources", "flow", "inputs", "failures", "success"]
    /// The causes a profile must rule on: every cause the engine tells apart.
    static var causeNames: [String] { SeedAlertPolicy.Cause.allCases.map(\.rawValue) }

    /// Reads and parses `file`; throws every problem found.
    public func parse(file: URL, displayPath: String) throws(ScenarioLoadError) -> ClientProfile {
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw ScenarioLoadError(problems: [ScenarioProblem(file: displayPath, pointer: "", message: "cannot read the profile: \(FileErrorText.reason(error))")])
        }
        let value: JSONValue
        do {
            value = try JSONValue(parsing: data)
        } catch {
            throw ScenarioLoadError(problems: [ScenarioProblem(file: displayPath, pointer: "", message: "invalid JSON at \(error.description)")])
        }
        return try parse(value, directory: file.deletingLastPathComponent(), displayPath: displayPath)
    }

    /// Parses a decoded profile whose file is in `directory`; throws every problem found.
    public func parse(_ document: JSONValue, directory: URL, displayPath: String) throws(ScenarioLoadError) -> ClientProfile {
        let r = ScenarioReader(file: displayPath)
        var problems: [ScenarioProblem] = []
        func attempt<T>(_ body: () throws(ScenarioProblem) -> T) -> T? {
            do { return try body() } catch {
                problems.append(error)
                return nil
            }
        }
        guard let root = document.objectValue else {
            throw ScenarioLoadError(problems: [r.problem("", "expected a client profile as a JSON object, found \(document.typeName)")])
        }
        for key in root.keys where !Self.topLevelKeys.contains(key) {
            problems.append(r.problem(JSONPointer.appending("", key), "unknown key \"\(key)\" in a client profile; expected one of: \(Self.topLevelKeys.joined(separator: ", "))"))
        }
        for key in ["profile", "authority", "flow", "failures", "success"] where root[key] == nil {
            problems.append(r.problem("", "a client profile is missing the required key \"\(key)\""))
        }
        let name = attempt { () throws(ScenarioProblem) in try r.nonEmptyString(root["profile"] ?? .null, at: "/profile", what: "the profile's name") }
        let summary = attempt { () throws(ScenarioProblem) in try root["summary"].map { v throws(ScenarioProblem) in try r.string(v, at: "/summary", what: "the summary") } } ?? nil
        let authority = attempt { () throws(ScenarioProblem) in try r.nonEmptyString(root["authority"] ?? .null, at: "/authority", what: "the authority") }
        let library = attempt { () throws(ScenarioProblem) in try root["library"].map { v throws(ScenarioProblem) in try r.nonEmptyString(v, at: "/library", what: "the library folder") } } ?? nil
        let sources = attempt { () throws(ScenarioProblem) in try parseSources(root["sources"], r) } ?? []
        let flow = root["flow"].flatMap { v in attempt { () throws(ScenarioProblem) in try parseFlow(v, r, problems: &problems) } }
        let inputs = root["inputs"].flatMap { v in attempt { () throws(ScenarioProblem) in try parseInputs(v, r, problems: &problems) } } ?? []
        let failures = root["failures"].flatMap { v in attempt { () throws(ScenarioProblem) in try parseFailures(v, r, problems: &problems) } }
        let success = root["success"].flatMap { v in attempt { () throws(ScenarioProblem) in try parseSuccess(v, r) } }

        if let flow {
            let known = Set(flow.fields)
            for (i, input) in inputs.enumerated() where !known.contains(input.field) {
                problems.append(r.problem("/inputs/\(i)/field", "the input \"\(input.field)\" is on no step of the flow; the steps' fields are: \(flow.fields.joined(separator: ", "))"))
            }
        }
        guard problems.isEmpty, let name, let authority, let flow, let failures, let success else { throw ScenarioLoadError(problems: problems) }
        let libraryDirectory = library.map { directory.appendingPathComponent($0, isDirectory: true).standardizedFileURL } ?? directory
        return ClientProfile(name: name, summary: summary ?? "", authority: authority, displayPath: displayPath, libraryDirectory: libraryDirectory,
                             sources: sources, flow: flow, inputs: inputs, failures: failures, success: success)
    }

    private func parseSources(_ value: JSONValue?, _ r: ScenarioReader) throws(ScenarioProblem) -> [ClientProfile.Source] {
        guard let value else { return [] }
        return try r.stringMap(value, at: "/sources", what: "the sources").map { ClientProfile.Source(id: $0.0, title: $0.1) }
    }

    private func strings(_ value: JSONValue?, at pointer: String, what: String, _ r: ScenarioReader) throws(ScenarioProblem) -> [String] {
        guard let value else { return [] }
        var result: [String] = []
        for (i, v) in try r.array(value, at: pointer, what: what).enumerated() {
            result.append(try r.nonEmptyString(v, at: "\(pointer)/\(i)", what: "an entry of \(what)"))
        }
        return result
    }

    private func parseFlow(_ value: JSONValue, _ r: ScenarioReader, problems: inout [ScenarioProblem]) throws(ScenarioProblem) -> ClientProfile.Flow {
        let o = try r.object(value, at: "/flow", allowed: ["name", "steps", "report", "earlierStops"], required: ["name", "steps", "report"], what: "the flow")
        let name = try r.nonEmptyString(o["name"] ?? .null, at: "/flow/name", what: "the flow's name")
        var steps: [ClientProfile.Step] = []
        var seenFields: [String: String] = [:]
        for (i, v) in try r.array(o["steps"] ?? .null, at: "/flow/steps", what: "the flow's steps").enumerated() {
            let at = "/flow/steps/\(i)"
            let s = try r.object(v, at: at, allowed: ["id", "fields", "source"], required: ["id", "fields", "source"], what: "a step")
            let id = try r.nonEmptyString(s["id"] ?? .null, at: at + "/id", what: "the step's id")
            let fields = try strings(s["fields"], at: at + "/fields", what: "the step's fields", r)
            for (j, field) in fields.enumerated() {
                if let other = seenFields[field] {
                    problems.append(r.problem("\(at)/fields/\(j)", "the field \"\(field)\" is already on the step \"\(other)\"; a field belongs to one step"))
                }
                seenFields[field] = id
            }
            steps.append(ClientProfile.Step(id: id, fields: fields, source: try r.nonEmptyString(s["source"] ?? .null, at: at + "/source", what: "the step's source")))
        }
        if steps.isEmpty { throw r.problem("/flow/steps", "a flow needs at least one step") }
        let report = try parseReport(o["report"] ?? .null, fields: Set(seenFields.keys), r, problems: &problems)
        let stops = try o["earlierStops"].map { v throws(ScenarioProblem) in try parseEarlierStops(v, steps: steps, r, problems: &problems) } ?? .none
        return ClientProfile.Flow(name: name, steps: steps, report: report, earlierStops: stops)
    }

    private func parseEarlierStops(_ value: JSONValue, steps: [ClientProfile.Step], _ r: ScenarioReader,
                                   problems: inout [ScenarioProblem]) throws(ScenarioProblem) -> ClientProfile.EarlierStops {
        let at = "/flow/earlierStops"
        let o = try r.object(value, at: at, allowed: ["rules", "nothingMissing"], required: ["rules", "nothingMissing"], what: "the earlier stops")
        let fields = Set(steps.flatMap(\.fields))
        var rules: [ClientProfile.EarlierStops.Rule] = []
        for (i, v) in try r.array(o["rules"] ?? .null, at: at + "/rules", what: "the earlier-stop rules").enumerated() {
            let p = "\(at)/rules/\(i)"
            let s = try r.object(v, at: p, allowed: ["step", "whenMissing", "allowed", "because", "source"],
                                 required: ["step", "whenMissing", "allowed", "because", "source"], what: "an earlier-stop rule")
            let step = try r.nonEmptyString(s["step"] ?? .null, at: p + "/step", what: "the step's id")
            if !steps.contains(where: { $0.id == step }) {
                problems.append(r.problem(p + "/step", "the step \"\(step)\" is not in the flow; its steps are: \(steps.map(\.id).joined(separator: ", "))"))
            }
            let missing = try strings(s["whenMissing"], at: p + "/whenMissing", what: "the missing fields", r)
            if missing.isEmpty { problems.append(r.problem(p + "/whenMissing", "an earlier-stop rule needs at least one field whose absence it is about")) }
            for (j, field) in missing.enumerated() where !fields.contains(field) {
                problems.append(r.problem("\(p)/whenMissing/\(j)", "the field \"\(field)\" is on no step of the flow"))
            }
            rules.append(ClientProfile.EarlierStops.Rule(
                step: step, whenMissing: missing, allowed: try r.bool(s["allowed"] ?? .null, at: p + "/allowed", what: "whether the stop is allowed"),
                because: try r.nonEmptyString(s["because"] ?? .null, at: p + "/because", what: "why"),
                source: try r.nonEmptyString(s["source"] ?? .null, at: p + "/source", what: "the source line")))
        }
        return ClientProfile.EarlierStops(rules: rules, nothingMissing: try r.nonEmptyString(o["nothingMissing"] ?? .null, at: at + "/nothingMissing", what: "the text"))
    }

    private func parseReport(_ value: JSONValue, fields: Set<String>, _ r: ScenarioReader, problems: inout [ScenarioProblem]) throws(ScenarioProblem) -> ClientProfile.Report {
        let at = "/flow/report"
        let o = try r.object(value, at: at, allowed: ["status", "statusMeans", "sends", "source", "body", "values"], required: ["status", "statusMeans", "sends", "source", "body", "values"], what: "the report")
        var values: [ClientProfile.SentValue] = []
        for (i, v) in try r.array(o["values"] ?? .null, at: at + "/values", what: "the sent values").enumerated() {
            let p = "\(at)/values/\(i)"
            let s = try r.object(v, at: p, allowed: ["field", "check", "citation"], required: ["field", "check", "citation"], what: "a sent value")
            let field = try r.nonEmptyString(s["field"] ?? .null, at: p + "/field", what: "the sent field")
            let check = try r.oneOf(s["check"] ?? .null, at: p + "/check", what: "check", choices: ClientProfile.SentValueCheck.allCases.map(\.rawValue))
            // The status is the report's own; every other checked value must be a field the user fills on a step.
            if check != ClientProfile.SentValueCheck.status.rawValue, !fields.contains(field) {
                problems.append(r.problem(p + "/field", "the sent value \"\(field)\" is on no step of the flow, so no input can be compared with it"))
            }
            values.append(ClientProfile.SentValue(field: field, check: ClientProfile.SentValueCheck(rawValue: check) ?? .status,
                                                  citation: try r.nonEmptyString(s["citation"] ?? .null, at: p + "/citation", what: "the citation")))
        }
        return ClientProfile.Report(
            status: try r.nonEmptyString(o["status"] ?? .null, at: at + "/status", what: "the report's status"),
            statusMeans: try r.nonEmptyString(o["statusMeans"] ?? .null, at: at + "/statusMeans", what: "what the status means"),
            sends: try strings(o["sends"], at: at + "/sends", what: "the contracts the submission calls", r),
            source: try r.nonEmptyString(o["source"] ?? .null, at: at + "/source", what: "the report's source"),
            bodyCitation: try r.nonEmptyString(o["body"] ?? .null, at: at + "/body", what: "the body's citation"),
            values: values)
    }

    static let ruleKeys = ["kind", "source", "min", "max", "leadingPlus", "separators", "anyCharacters", "format", "letters", "conflict"]

    private func parseInputs(_ value: JSONValue, _ r: ScenarioReader, problems: inout [ScenarioProblem]) throws(ScenarioProblem) -> [ClientProfile.InputField] {
        var fields: [ClientProfile.InputField] = []
        for (i, v) in try r.array(value, at: "/inputs", what: "the inputs").enumerated() {
            let at = "/inputs/\(i)"
            let o = try r.object(v, at: at, allowed: ["field", "message", "messageSource", "rules"], required: ["field", "rules"], what: "an input")
            let field = try r.nonEmptyString(o["field"] ?? .null, at: at + "/field", what: "the input's field")
            let message = try o["message"].map { v throws(ScenarioProblem) in try r.nonEmptyString(v, at: at + "/message", what: "the inline message") }
            if message != nil, o["messageSource"] == nil { problems.append(r.problem(at, "an inline message needs its \"messageSource\"")) }
            var rules: [ClientProfile.InputRule] = []
            for (j, rv) in try r.array(o["rules"] ?? .null, at: at + "/rules", what: "the input's rules").enumerated() {
                rules.append(try parseRule(rv, at: "\(at)/rules/\(j)", r))
            }
            fields.append(ClientProfile.InputField(field: field, message: message, rules: rules))
        }
        return fields
    }

    private func parseRule(_ value: JSONValue, at: String, _ r: ScenarioReader) throws(ScenarioProblem) -> ClientProfile.InputRule {
        let o = try r.object(value, at: at, allowed: Self.ruleKeys, required: ["kind", "source"], what: "an input rule")
        let kindName = try r.oneOf(o["kind"] ?? .null, at: at + "/kind", what: "rule kind", choices: ClientProfile.InputRule.Kind.allCases.map(\.rawValue))
        let kind = ClientProfile.InputRule.Kind(rawValue: kindName) ?? .trim
        func int(_ key: String) throws(ScenarioProblem) -> Int? {
            try o[key].map { v throws(ScenarioProblem) in try r.int(v, at: "\(at)/\(key)", what: "\"\(key)\"", range: 0...100_000) }
        }
        func text(_ key: String) throws(ScenarioProblem) -> String? {
            try o[key].map { v throws(ScenarioProblem) in try r.string(v, at: "\(at)/\(key)", what: "\"\(key)\"") }
        }
        let min = try int("min"), max = try int("max")
        switch kind {
        case .digits:
            guard let min, let max else { throw r.problem(at, "a digits rule needs \"min\" and \"max\"") }
            if min > max { throw r.problem(at + "/min", "a digits rule's min \(min) is above its max \(max)") }
        case .maxLength:
            if max == nil { throw r.problem(at, "a maxLength rule needs \"max\"") }
        case .format:
            let format = try text("format")
            guard format == "email" else { throw r.problem(at + "/format", "unknown format \(format.map { "\"\($0)\"" } ?? "(none)"); expected one of: email") }
        default:
            break
        }
        return ClientProfile.InputRule(
            kind: kind, source: try r.nonEmptyString(o["source"] ?? .null, at: at + "/source", what: "the rule's source"), min: min, max: max,
            leadingPlus: try o["leadingPlus"].map { v throws(ScenarioProblem) in try r.bool(v, at: at + "/leadingPlus", what: "\"leadingPlus\"") } ?? false,
            separators: try text("separators") ?? "",
            anyCharacters: try o["anyCharacters"].map { v throws(ScenarioProblem) in try r.bool(v, at: at + "/anyCharacters", what: "\"anyCharacters\"") } ?? false,
            format: try text("format"), letters: try text("letters"), conflict: try text("conflict"))
    }

    private func parseFailures(_ value: JSONValue, _ r: ScenarioReader, problems: inout [ScenarioProblem]) throws(ScenarioProblem) -> ClientProfile.Failures {
        let o = try r.object(value, at: "/failures", allowed: ["feedback", "affordances", "readings", "causes"], required: ["feedback", "readings", "causes"], what: "the failures")
        var feedback: [ClientProfile.Feedback] = []
        guard let feedbackObject = o["feedback"]?.objectValue else { throw r.problem("/failures/feedback", "expected the feedback as a JSON object of feedback by id") }
        let kinds = SeedAlertPolicy.Alert.allCases.map(\.rawValue)
        for (id, v) in feedbackObject {
            let at = JSONPointer.appending("/failures/feedback", id)
            // Clients report a failure's feedback by the protocol's alert kinds, so a profile names its feedback by them.
            guard kinds.contains(id) else {
                problems.append(r.problem(at, "unknown feedback id \"\(id)\"; clients report feedback by the protocol's alert kinds: \(kinds.joined(separator: ", "))"))
                continue
            }
            // One broken feedback is reported without hiding the problems of the rest.
            do {
                let f = try r.object(v, at: at, allowed: ["kind", "text", "name", "source"], required: ["kind", "name", "source"], what: "a feedback")
                let kind = try r.oneOf(f["kind"] ?? .null, at: at + "/kind", what: "feedback kind", choices: ClientProfile.Feedback.Kind.allCases.map(\.rawValue))
                feedback.append(ClientProfile.Feedback(
                    id: id, kind: ClientProfile.Feedback.Kind(rawValue: kind) ?? .alert,
                    text: try f["text"].map { v throws(ScenarioProblem) in try r.nonEmptyString(v, at: at + "/text", what: "the feedback's text") },
                    name: try r.nonEmptyString(f["name"] ?? .null, at: at + "/name", what: "the feedback's name"),
                    source: try r.nonEmptyString(f["source"] ?? .null, at: at + "/source", what: "the feedback's source")))
            } catch {
                problems.append(error)
            }
        }
        var affordances: [ClientProfile.Affordance] = []
        if let list = o["affordances"] {
            for (i, v) in try r.array(list, at: "/failures/affordances", what: "the affordances").enumerated() {
                let at = "/failures/affordances/\(i)"
                let a = try r.object(v, at: at, allowed: ["label", "does", "source"], required: ["label", "does", "source"], what: "an affordance")
                let does = try r.oneOf(a["does"] ?? .null, at: at + "/does", what: "effect", choices: ClientProfile.Affordance.Effect.allCases.map(\.rawValue))
                affordances.append(ClientProfile.Affordance(
                    label: try r.nonEmptyString(a["label"] ?? .null, at: at + "/label", what: "the affordance's label"),
                    does: ClientProfile.Affordance.Effect(rawValue: does) ?? .stayOnForm,
                    source: try r.nonEmptyString(a["source"] ?? .null, at: at + "/source", what: "the affordance's source")))
            }
        }
        var readings: [String: ClientProfile.Reading] = [:]
        guard let readingObject = o["readings"]?.objectValue else { throw r.problem("/failures/readings", "expected the readings as a JSON object of readings by id") }
        // A reading may name a feedback whose entry is broken: that entry's problem is reported already.
        let feedbackIDs = feedbackObject.keys.filter(kinds.contains)
        for (id, v) in readingObject {
            let at = JSONPointer.appending("/failures/readings", id)
            let x = try r.object(v, at: at, allowed: ["feedback", "name", "sources"], required: ["feedback", "name", "sources"], what: "a reading")
            let shown = try r.oneOf(x["feedback"] ?? .null, at: at + "/feedback", what: "feedback", choices: feedbackIDs)
            let sources = try strings(x["sources"], at: at + "/sources", what: "the reading's sources", r)
            if sources.isEmpty { problems.append(r.problem(at + "/sources", "a reading needs at least one source line")) }
            readings[id] = ClientProfile.Reading(feedback: shown, name: try r.nonEmptyString(x["name"] ?? .null, at: at + "/name", what: "the reading's name"), sources: sources)
        }
        var causes: [String: [String]] = [:]
        guard let causeObject = o["causes"]?.objectValue else { throw r.problem("/failures/causes", "expected the causes as a JSON object of reading ids by cause") }
        for (cause, v) in causeObject {
            let at = JSONPointer.appending("/failures/causes", cause)
            guard Self.causeNames.contains(cause) else {
                problems.append(r.problem(at, "unknown cause \"\(cause)\"; expected one of: \(Self.causeNames.joined(separator: ", "))"))
                continue
            }
            let ids = try strings(v, at: at, what: "the cause's readings", r)
            var shown: Set<String> = []
            for (i, id) in ids.enumerated() {
                guard let reading = readings[id] else {
                    problems.append(r.problem("\(at)/\(i)", "unknown reading \"\(id)\"; expected one of: \(readings.keys.sorted().joined(separator: ", "))"))
                    continue
                }
                // Each reading of a cause allows a feedback of its own: two readings for one feedback say one thing twice.
                if !shown.insert(reading.feedback).inserted {
                    problems.append(r.problem("\(at)/\(i)", "the reading \"\(id)\" gives \"\(reading.feedback)\", which an earlier reading of this cause gives already"))
                }
            }
            if ids.isEmpty { problems.append(r.problem(at, "a cause needs at least one reading")) }
            causes[cause] = ids
        }
        for cause in Self.causeNames where causes[cause] == nil && !problems.contains(where: { $0.pointer.hasPrefix("/failures/causes") }) {
            problems.append(r.problem("/failures/causes", "the cause \"\(cause)\" has no reading; every cause a client can meet needs one"))
        }
        return ClientProfile.Failures(feedback: feedback, affordances: affordances, readings: readings, causes: causes)
    }

    private func parseSuccess(_ value: JSONValue, _ r: ScenarioReader) throws(ScenarioProblem) -> ClientProfile.Success {
        let o = try r.object(value, at: "/success", allowed: ["shows", "managementPassword", "analytics", "source"], required: ["shows", "source"], what: "the success")
        let shows = ClientProfile.Success.Shows(rawValue: try r.oneOf(o["shows"] ?? .null, at: "/success/shows", what: "success screen", choices: ClientProfile.Success.Shows.allCases.map(\.rawValue))) ?? .summary
        let password = try o["managementPassword"].map { v throws(ScenarioProblem) in try r.pattern(v, at: "/success/managementPassword", what: "the password pattern").source }
        if shows == .summary, password == nil { throw r.problem("/success", "a success that shows the summary needs the \"managementPassword\" pattern it shows") }
        if shows == .close, password != nil { throw r.problem("/success/managementPassword", "a flow that closes on success shows no password") }
        return ClientProfile.Success(shows: shows, managementPassword: password,
                                     analytics: try strings(o["analytics"], at: "/success/analytics", what: "the analytics events", r),
                                     source: try r.nonEmptyString(o["source"] ?? .null, at: "/success/source", what: "the success's source"))
    }
}
