import ContractKit
import ContractModel
import Foundation
import MockBackend

/// Turns a scenario file into a `Scenario`, reporting every problem with the file and JSON pointer.
public struct ScenarioParser: Sendable {
    /// Where named report fixtures, backend fixtures and photo files live.
    public let fixturesDirectory: URL

    /// A parser resolving fixtures in `fixturesDirectory`.
    public init(fixturesDirectory: URL) {
        self.fixturesDirectory = fixturesDirectory
    }

    static let topLevelKeys = ["name", "summary", "profile", "flow", "tags", "report", "reportOverrides", "client", "backend", "faults", "steps"]
    static let stepKeys = ["action", "field", "value", "id", "query", "request", "capture", "faults", "ms", "seconds", "expect", "todo"]
    static let expectKeys = [
        "outcome", "managementPassword", "alert", "fields", "inputs", "inputsIntact", "screen", "details", "listed",
        "status", "errorCode", "errorField", "headers", "bodyMatches", "bodyEquals", "journal", "because", "analytics",
        "passwordOpensPhoto",
    ]
    static let journalKeys = ["calls", "order", "noRequests", "authUserIsCreatedId", "announcements", "sentReport", "sentBody", "sentBodyMatches"]

    /// Parses a file; throws every problem found.
    public func parse(file: URL, displayPath: String) throws(ScenarioLoadError) -> Scenario {
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw ScenarioLoadError(problems: [ScenarioProblem(file: displayPath, pointer: "", message: "cannot read the file: \(FileErrorText.reason(error))")])
        }
        let value: JSONValue
        do {
            value = try JSONValue(parsing: data)
        } catch {
            throw ScenarioLoadError(problems: [ScenarioProblem(file: displayPath, pointer: "", message: "invalid JSON at \(error.description)")])
        }
        return try parse(value, file: file, displayPath: displayPath)
    }

    /// Parses an already decoded document; throws every problem found.
    public func parse(_ document: JSONValue, file: URL, displayPath: String) throws(ScenarioLoadError) -> Scenario {
        let reader = ScenarioReader(file: displayPath)
        var problems: [ScenarioProblem] = []
        func attempt<T>(_ body: () throws(ScenarioProblem) -> T) -> T? {
            do { return try body() } catch {
                problems.append(error)
                return nil
            }
        }
        guard let root = document.objectValue else {
            throw ScenarioLoadError(problems: [reader.problem("", "expected a scenario as a JSON object, found \(document.typeName)")])
        }
        // Unknown top-level keys are reported without stopping, so one pass shows every problem in the file.
        for key in root.keys where !Self.topLevelKeys.contains(key) {
            problems.append(reader.problem(JSONPointer.appending("", key), "unknown key \"\(key)\" in a scenario; expected one of: \(Self.topLevelKeys.joined(separator: ", "))"))
        }
        for key in ["name", "steps"] where root[key] == nil {
            problems.append(reader.problem("", "a scenario is missing the required key \"\(key)\""))
        }

        let name = attempt { () throws(ScenarioProblem) in try reader.nonEmptyString(root["name"] ?? .null, at: "/name", what: "the scenario name") }
        let summary = attempt { () throws(ScenarioProblem) in
            try root["summary"].map { v throws(ScenarioProblem) in try reader.string(v, at: "/summary", what: "the summary") }
        } ?? nil
        // The client profile and flow the scenario is written for; `lint` and `run` refuse it under another one.
        let profile = attempt { () throws(ScenarioProblem) in
            try root["profile"].map { v throws(ScenarioProblem) in try reader.nonEmptyString(v, at: "/profile", what: "the client profile's name") }
        } ?? nil
        let flow = attempt { () throws(ScenarioProblem) in
            try root["flow"].map { v throws(ScenarioProblem) in try reader.nonEmptyString(v, at: "/flow", what: "the profile's flow") }
        } ?? nil
        let tags = attempt { () throws(ScenarioProblem) in try parseTags(root["tags"], reader) } ?? []
        let report = attempt { () throws(ScenarioProblem) in try parseReport(root["report"], overrides: root["reportOverrides"], reader) }
        let client = attempt { () throws(ScenarioProblem) in try parseClient(root["client"], reader) }
        let backend = attempt { () throws(ScenarioProblem) in try parseBackend(root["backend"], reader) }
        let faults = attempt { () throws(ScenarioProblem) in
            try root["faults"].map { v throws(ScenarioProblem) in try reader.array(v, at: "/faults", what: "the fault rules") } ?? []
        }
        let faultRules = faults.flatMap { list in attempt { () throws(ScenarioProblem) in try Self.parseFaultRules(list, at: "/faults", reader) } }
        var steps: [Step] = []
        if let stepsValue = root["steps"], let stepValues = attempt({ () throws(ScenarioProblem) in try reader.array(stepsValue, at: "/steps", what: "the steps") }) {
            if stepValues.isEmpty { problems.append(reader.problem("/steps", "a scenario needs at least one step")) }
            for (i, v) in stepValues.enumerated() {
                if let step = attempt({ () throws(ScenarioProblem) in try parseStep(v, number: i + 1, reader) }) { steps.append(step) }
            }
        }
        if let first = steps.first, case .client(let action) = first.action, action == .retry || action == .cancel {
            problems.append(reader.problem(first.pointer + "/action", "\"\(action.name)\" answers a failure alert, so it cannot be the first step"))
        }
        guard problems.isEmpty, let name, let report, let client, let backend, let faults, let faultRules else {
            throw ScenarioLoadError(problems: problems)
        }
        return Scenario(
            name: name, file: file, displayPath: displayPath, tags: tags, summary: summary, report: report,
            client: client, backend: backend, faults: faults, faultRules: faultRules, steps: steps, profile: profile, flow: flow)
    }

    /// Parses rules with the fault layer's own parser, re-rooting its pointers at `pointer` in the scenario file.
    static func parseFaultRules(_ list: [JSONValue], at pointer: String, _ reader: ScenarioReader) throws(ScenarioProblem) -> [FaultRule] {
        do {
            return try FaultRule.parseRules(.array(list), file: reader.file)
        } catch {
            throw reader.problem(pointer + error.pointer, error.message)
        }
    }

    func parseTags(_ value: JSONValue?, _ reader: ScenarioReader) throws(ScenarioProblem) -> [String] {
        guard let value else { return [] }
        var tags: [String] = []
        for (i, v) in try reader.array(value, at: "/tags", what: "the tags").enumerated() {
            tags.append(try reader.nonEmptyString(v, at: "/tags/\(i)", what: "a tag"))
        }
        return tags
    }

    func parseClient(_ value: JSONValue?, _ reader: ScenarioReader) throws(ScenarioProblem) -> ClientSettings {
        guard let value else { return ClientSettings() }
        let o = try reader.object(value, at: "/client", allowed: ["timeoutMs", "stepTimeoutMs"], what: "the client settings")
        let timeout = try o["timeoutMs"].map { v throws(ScenarioProblem) in
            try reader.int(v, at: "/client/timeoutMs", what: "the client request timeout", range: 1...600_000)
        }
        let step = try o["stepTimeoutMs"].map { v throws(ScenarioProblem) in
            try reader.int(v, at: "/client/stepTimeoutMs", what: "the step timeout", range: 1...600_000)
        }
        return ClientSettings(requestTimeoutMs: timeout ?? ClientSettings.defaultRequestTimeoutMs, stepTimeoutMs: step)
    }

    func parseBackend(_ value: JSONValue?, _ reader: ScenarioReader) throws(ScenarioProblem) -> BackendSettings {
        guard let value else { return BackendSettings() }
        let o = try reader.object(value, at: "/backend", allowed: ["fixtures", "seed"], what: "the backend settings")
        var settings = BackendSettings()
        if let f = o["fixtures"], f.objectValue != nil {
            // Inline announcements keep a generated scenario self-contained; checked here so a bad one fails lint, not the run.
            do {
                _ = try RecordFixture.parse(f, file: "backend.fixtures")
            } catch {
                throw reader.problem("/backend/fixtures" + error.pointer, "inline fixtures: \(error.reason)")
            }
            settings.inlineFixtures = f
            settings.fixturesName = "(inline)"
        } else if let f = o["fixtures"] {
            let name = try reader.nonEmptyString(f, at: "/backend/fixtures", what: "the backend fixtures file or an inline {\"announcements\": [...]} object")
            let url = try fixtureFile(name, at: "/backend/fixtures", reader)
            settings.fixtures = url
            settings.fixturesName = name
        }
        if let s = o["seed"] {
            settings.seed = UInt64(try reader.int(s, at: "/backend/seed", what: "the backend seed", range: 0...Int.max))
        }
        return settings
    }

    func fixtureFile(_ name: String, at pointer: String, _ reader: ScenarioReader) throws(ScenarioProblem) -> URL {
        // Fixture names are plain file names: no way to reach outside the fixtures folder.
        guard !name.contains("/"), !name.contains("\\"), name != ".", name != ".." else {
            throw reader.problem(pointer, "a fixture is named by its file name in scenarios/fixtures/, without a folder; found \"\(name)\"")
        }
        let url = fixturesDirectory.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw reader.problem(pointer, "no fixture file \"\(name)\" in \(fixturesDirectory.path)")
        }
        return url
    }

    // MARK: report

    func parseReport(_ value: JSONValue?, overrides: JSONValue?, _ reader: ScenarioReader) throws(ScenarioProblem) -> ReportData {
        var fields = JSONObject()
        var photo: Photo?
        switch value {
        case nil:
            throw reader.problem("", "a scenario is missing the required key \"report\" (an inline object or the name of a fixture in scenarios/fixtures/)")
        case .string(let name)?:
            let file = name.hasSuffix(".json") ? name : name + ".json"
            let url = try fixtureFile(file, at: "/report", reader)
            let fixtureReader = ScenarioReader(file: "fixtures/" + file)
            let document: JSONValue
            do {
                document = try JSONValue(parsing: try Data(contentsOf: url))
            } catch let error as JSONSyntaxError {
                throw fixtureReader.problem("", "invalid JSON at \(error.description)")
            } catch {
                throw fixtureReader.problem("", "cannot read the file: \(FileErrorText.reason(error))")
            }
            (fields, photo) = try parseReportObject(document, at: "", fixtureReader)
        case let v?:
            (fields, photo) = try parseReportObject(v, at: "/report", reader)
        }
        if let overrides {
            let (extra, extraPhoto) = try parseReportObject(overrides, at: "/reportOverrides", reader)
            for (k, v) in extra {
                // null removes a field, so a scenario can drop the phone from a fixture.
                // JSONValue is ExpressibleByNilLiteral, so spell out Optional.none to remove rather than store null.
                fields[k] = v.isNull ? Optional<JSONValue>.none : v
            }
            if overrides["photo"] != nil { photo = extraPhoto }
        }
        return ReportData(fields: fields, photo: photo)
    }

    func parseReportObject(_ value: JSONValue, at pointer: String, _ reader: ScenarioReader) throws(ScenarioProblem) -> (JSONObject, Photo?) {
        let o = try reader.object(value, at: pointer, allowed: ReportData.fieldNames + ["photo"], what: "the report")
        var fields = JSONObject()
        var photo: Photo?
        for (key, v) in o {
            let p = JSONPointer.appending(pointer, key)
            switch key {
            case "photo":
                photo = v.isNull ? nil : try parsePhoto(v, at: p, reader)
            case "age":
                if !v.isNull { _ = try reader.int(v, at: p, what: "the age") }
                fields[key] = v
            case "locationLatitude", "locationLongitude":
                if !v.isNull { _ = try reader.number(v, at: p, what: key) }
                fields[key] = v
            default:
                fields[key] = v.isNull ? .null : .string(try reader.text(v, at: p, what: key))
            }
        }
        return (fields, photo)
    }

    func parsePhoto(_ value: JSONValue, at pointer: String, _ reader: ScenarioReader) throws(ScenarioProblem) -> Photo {
        let o = try reader.object(value, at: pointer, allowed: ["file", "base64", "text", "mimeType"], what: "the photo")
        let sources = ["file", "base64", "text"].filter { o[$0] != nil }
        guard sources.count == 1 else {
            throw reader.problem(pointer, "a photo needs exactly one of \"file\", \"base64\" or \"text\", found \(sources.count)")
        }
        let mime = try o["mimeType"].map { v throws(ScenarioProblem) in try reader.nonEmptyString(v, at: pointer + "/mimeType", what: "the MIME type") }
        switch sources[0] {
        case "file":
            let name = try reader.nonEmptyString(o["file"] ?? .null, at: pointer + "/file", what: "the photo file")
            let url = try fixtureFile(name, at: pointer + "/file", reader)
            guard let data = try? Data(contentsOf: url) else { throw reader.problem(pointer + "/file", "cannot read the photo file \"\(name)\"") }
            return Photo(bytes: data, mimeType: mime ?? Self.mimeType(forFileName: name))
        case "base64":
            let text = try reader.string(o["base64"] ?? .null, at: pointer + "/base64", what: "the photo bytes")
            guard let data = Data(base64Encoded: text) else { throw reader.problem(pointer + "/base64", "expected base64-encoded bytes") }
            return Photo(bytes: data, mimeType: mime ?? "image/jpeg")
        default:
            let text = try reader.text(o["text"] ?? .null, at: pointer + "/text", what: "the photo text")
            return Photo(bytes: Data(text.utf8), mimeType: mime ?? "image/jpeg")
        }
    }

    static func mimeType(forFileName name: String) -> String {
        switch (name as NSString).pathExtension.lowercased() {
        case "png": return "image/png"
        case "gif": return "image/gif"
        case "webp": return "image/webp"
        default: return "image/jpeg"
        }
    }

    // MARK: steps

    func parseStep(_ value: JSONValue, number: Int, _ reader: ScenarioReader) throws(ScenarioProblem) -> Step {
        let pointer = "/steps/\(number - 1)"
        let o = try reader.object(value, at: pointer, allowed: Self.stepKeys, required: ["action"], what: "a step")
        let actionName = try reader.oneOf(o["action"] ?? .null, at: pointer + "/action", what: "action", choices: ClientAction.names + ["http", "setFaults", "wait", "advanceClock"])
        let allowed: [String]
        let action: StepAction
        switch actionName {
        case "editField":
            allowed = ["action", "field", "value", "expect"]
            // Which fields exist is the profile's (its flow's steps); `ProfileLinter` refuses a field on no step.
            let field = try reader.nonEmptyString(o["field"] ?? .null, at: pointer + "/field", what: "input field")
            let text = try reader.text(o["value"] ?? .null, at: pointer + "/value", what: "the typed value")
            action = .client(.editField(field: field, value: text))
        case "loadDetails":
            allowed = ["action", "id", "expect"]
            action = .client(.loadDetails(id: try reader.nonEmptyString(o["id"] ?? .null, at: pointer + "/id", what: "the announcement id")))
        case "list":
            allowed = ["action", "query", "expect"]
            var lat: Double?
            var lng: Double?
            var range: Int?
            if let q = o["query"] {
                let qo = try reader.object(q, at: pointer + "/query", allowed: ["lat", "lng", "range"], what: "the list query")
                lat = try qo["lat"].map { v throws(ScenarioProblem) in try reader.number(v, at: pointer + "/query/lat", what: "lat") }
                lng = try qo["lng"].map { v throws(ScenarioProblem) in try reader.number(v, at: pointer + "/query/lng", what: "lng") }
                range = try qo["range"].map { v throws(ScenarioProblem) in try reader.int(v, at: pointer + "/query/range", what: "range", range: 1...20_000) }
            }
            action = .client(.list(latitude: lat, longitude: lng, rangeKm: range))
        case "setFaults":
            allowed = ["action", "faults", "expect"]
            let list = try reader.array(o["faults"] ?? .null, at: pointer + "/faults", what: "the new fault rules")
            action = .setFaults(try Self.parseFaultRules(list, at: pointer + "/faults", reader))
        case "wait":
            allowed = ["action", "ms", "expect"]
            action = .wait(ms: try reader.int(o["ms"] ?? .null, at: pointer + "/ms", what: "the idle time in milliseconds", range: 1...60_000))
        case "advanceClock":
            allowed = ["action", "seconds", "expect"]
            let seconds = try reader.number(o["seconds"] ?? .null, at: pointer + "/seconds", what: "the seconds to move the virtual clock")
            guard seconds.isFinite, seconds > 0, seconds <= FaultRanges.maxSeconds else {
                throw reader.problem(pointer + "/seconds", "expected a number of seconds greater than 0 (the virtual clock only moves forward) and at most \(Int(FaultRanges.maxSeconds)) (365 days); found \(seconds)")
            }
            action = .advanceClock(seconds: seconds)
        case "http":
            allowed = ["action", "request", "capture", "expect"]
            action = .http(try parseHTTPRequest(o["request"], capture: o["capture"], at: pointer, reader))
        default:
            allowed = ["action", "expect"]
            let simple: [String: ClientAction] = [
                "submit": .submit, "doubleTapContinue": .doubleTapContinue, "retry": .retry, "cancel": .cancel, "retryDetails": .retryDetails,
                "deviceOffline": .deviceOffline, "deviceOnline": .deviceOnline,
            ]
            action = .client(simple[actionName] ?? .submit)
        }
        // `todo` (an expectation still to write, e.g. in a skeleton from `spotcheck import har`) fits every action.
        for key in o.keys where !allowed.contains(key) && key != "todo" {
            throw reader.problem(pointer + "/" + key, "key \"\(key)\" does not apply to a \"\(actionName)\" step; it takes: \(allowed.joined(separator: ", "))")
        }
        let expect = try o["expect"].map { v throws(ScenarioProblem) in try parseExpectation(v, at: pointer + "/expect", action: action, reader) } ?? StepExpectation()
        let todo = try o["todo"].map { v throws(ScenarioProblem) in try reader.nonEmptyString(v, at: pointer + "/todo", what: "what is still to fill in") }
        return Step(number: number, pointer: pointer, action: action, expect: expect, todo: todo)
    }

    func parseHTTPRequest(_ value: JSONValue?, capture: JSONValue?, at stepPointer: String, _ reader: ScenarioReader) throws(ScenarioProblem) -> HTTPStepRequest {
        let pointer = stepPointer + "/request"
        guard let value else { throw reader.problem(stepPointer, "an \"http\" step needs a \"request\"") }
        let o = try reader.object(value, at: pointer, allowed: ["method", "path", "headers", "basicAuth", "json", "body", "multipart"], required: ["method", "path"], what: "the request")
        let method = try reader.oneOf(o["method"] ?? .null, at: pointer + "/method", what: "method", choices: ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"])
        let path = try reader.nonEmptyString(o["path"] ?? .null, at: pointer + "/path", what: "the path")
        guard path.hasPrefix("/") else { throw reader.problem(pointer + "/path", "the path must start with \"/\"; found \"\(path)\"") }
        var request = HTTPStepRequest(method: method, path: path)
        if let h = o["headers"] {
            request.headers = try reader.stringMap(h, at: pointer + "/headers", what: "the headers").map { (name: $0.0, value: $0.1) }
        }
        if let b = o["basicAuth"] {
            let bo = try reader.object(b, at: pointer + "/basicAuth", allowed: ["user", "password"], required: ["user", "password"], what: "the Basic credentials")
            request.basicAuth = (
                user: try reader.string(bo["user"] ?? .null, at: pointer + "/basicAuth/user", what: "the user"),
                password: try reader.string(bo["password"] ?? .null, at: pointer + "/basicAuth/password", what: "the password")
            )
        }
        let bodies = ["json", "body", "multipart"].filter { o[$0] != nil }
        if bodies.count > 1 { throw reader.problem(pointer, "a request has at most one of \"json\", \"body\", \"multipart\"; found \(bodies.joined(separator: ", "))") }
        if let json = o["json"] { request.body = .json(json) }
        if let body = o["body"] { request.body = .text(try reader.text(body, at: pointer + "/body", what: "the body")) }
        if let m = o["multipart"] {
            let mo = try reader.object(m, at: pointer + "/multipart", allowed: ["part", "filename", "photo"], required: ["photo"], what: "the multipart body")
            let part = try mo["part"].map { v throws(ScenarioProblem) in try reader.nonEmptyString(v, at: pointer + "/multipart/part", what: "the part name") } ?? "photo"
            let filename = try mo["filename"].map { v throws(ScenarioProblem) in try reader.nonEmptyString(v, at: pointer + "/multipart/filename", what: "the file name") } ?? "photo.jpg"
            let photo = try parsePhoto(mo["photo"] ?? .null, at: pointer + "/multipart/photo", reader)
            request.body = .multipart(part: part, filename: filename, photo: photo)
        }
        if let capture {
            request.capture = try reader.stringMap(capture, at: stepPointer + "/capture", what: "the captures").map { (name, p) throws(ScenarioProblem) in
                guard p.isEmpty || p.hasPrefix("/") else {
                    throw reader.problem(stepPointer + "/capture/" + name, "expected a JSON pointer such as \"/id\"; found \"\(p)\"")
                }
                return (name: name, pointer: p)
            }
        }
        return request
    }

    func parseExpectation(_ value: JSONValue, at pointer: String, action: StepAction, _ reader: ScenarioReader) throws(ScenarioProblem) -> StepExpectation {
        let o = try reader.object(value, at: pointer, allowed: Self.expectKeys, what: "the expectation")
        let httpOnly = ["status", "errorCode", "errorField", "headers", "bodyMatches", "bodyEquals"]
        for key in o.keys {
            switch action {
            case .setFaults, .wait, .advanceClock:
                if key != "journal", key != "because" {
                    throw reader.problem(pointer + "/" + key, "a \"\(action.name)\" step only takes \"journal\" and \"because\" expectations")
                }
            default:
                break
            }
            if action.usesClient, httpOnly.contains(key) {
                throw reader.problem(pointer + "/" + key, "\"\(key)\" checks a raw HTTP answer and only applies to \"http\" steps")
            }
            if !action.usesClient, !httpOnly.contains(key), !["journal", "because"].contains(key) {
                throw reader.problem(pointer + "/" + key, "\"\(key)\" checks the client and does not apply to an \"http\" step")
            }
        }
        var e = StepExpectation()
        if let v = o["outcome"] {
            let choices = ClientOutcome.allCases.map(\.rawValue)
            if let list = v.arrayValue {
                guard !list.isEmpty else { throw reader.problem(pointer + "/outcome", "list at least one accepted outcome") }
                let outcomes = try list.enumerated().map { (i, item) throws(ScenarioProblem) in
                    ClientOutcome(rawValue: try reader.oneOf(item, at: pointer + "/outcome/\(i)", what: "outcome", choices: choices))
                }.compactMap { $0 }
                e.outcome = outcomes.first
                e.otherOutcomes = Array(outcomes.dropFirst())
            } else {
                e.outcome = ClientOutcome(rawValue: try reader.oneOf(v, at: pointer + "/outcome", what: "outcome", choices: choices))
            }
        }
        if let v = o["managementPassword"] { e.managementPassword = try reader.pattern(v, at: pointer + "/managementPassword", what: "the password pattern") }
        if let v = o["alert"] {
            let ao = try reader.object(v, at: pointer + "/alert", allowed: ["kind", "message", "buttons", "buttonOrder"], required: ["kind"], what: "the alert")
            let kindValue = ao["kind"] ?? .null
            var kinds: [String] = []
            if let list = kindValue.arrayValue {
                for (i, k) in list.enumerated() {
                    kinds.append(try reader.oneOf(k, at: pointer + "/alert/kind/\(i)", what: "alert kind", choices: ["noConnection", "generic"]))
                }
                if kinds.isEmpty { throw reader.problem(pointer + "/alert/kind", "list at least one accepted alert kind") }
            } else {
                kinds = [try reader.oneOf(kindValue, at: pointer + "/alert/kind", what: "alert kind", choices: ["noConnection", "generic"])]
            }
            let message = try ao["message"].map { v throws(ScenarioProblem) in try reader.string(v, at: pointer + "/alert/message", what: "the alert message") }
            e.alert = AlertExpectation(kinds: kinds, message: message)
            if let b = ao["buttons"] { e.alert?.buttons = try stringList(b, at: pointer + "/alert/buttons", what: "the button titles", reader) }
            if let r = ao["buttonOrder"] {
                guard e.alert?.buttons != nil else { throw reader.problem(pointer + "/alert/buttonOrder", "\"buttonOrder\" pins the order of \"buttons\"; list the buttons too") }
                e.alert?.buttonOrder = try reader.nonEmptyString(r, at: pointer + "/alert/buttonOrder", what: "the reason the button order matters")
            }
        }
        if let v = o["fields"] {
            // A list gives several accepted sets of messages, where the seeds allow several readings.
            let items = v.arrayValue ?? [v]
            if items.isEmpty { throw reader.problem(pointer + "/fields", "list at least one accepted set of field messages") }
            var sets: [[String: String]] = []
            for (i, item) in items.enumerated() {
                let at = v.arrayValue == nil ? pointer + "/fields" : pointer + "/fields/\(i)"
                sets.append(Dictionary(try reader.stringMap(item, at: at, what: "the field messages", allowedKeys: nil), uniquingKeysWith: { a, _ in a }))
            }
            e.fieldErrors = sets.first
            e.otherFieldErrors = Array(sets.dropFirst())
        }
        if let v = o["inputs"] { e.inputs = try parseInputs(v, at: pointer + "/inputs", reader) }
        if let v = o["analytics"] { e.analytics = try stringList(v, at: pointer + "/analytics", what: "the analytics event names", reader) }
        if let v = o["inputsIntact"] { e.inputsIntact = try reader.bool(v, at: pointer + "/inputsIntact", what: "inputsIntact") }
        if let v = o["screen"] { e.screen = try reader.oneOf(v, at: pointer + "/screen", what: "screen", choices: ["form", "summary", "closed"]) }
        if let v = o["details"] {
            let d = try reader.object(v, at: pointer + "/details", allowed: ["state", "message", "presentation"], what: "the details expectation")
            var details = DetailsExpectation()
            details.state = try d["state"].map { v throws(ScenarioProblem) in try reader.oneOf(v, at: pointer + "/details/state", what: "details state", choices: DetailsExpectation.states) }
            details.message = try d["message"].map { v throws(ScenarioProblem) in try reader.string(v, at: pointer + "/details/message", what: "the details message") }
            if let p = d["presentation"] {
                details.presentation = try parseAlternatives(p, at: pointer + "/details/presentation", what: "the presentation", keys: nil, reader)
            }
            e.details = details
        }
        if let v = o["listed"] { e.listedCount = try reader.int(v, at: pointer + "/listed", what: "the listed count", range: 0...100_000) }
        if o.keys.contains(where: { httpOnly.contains($0) }) {
            var h = HTTPExpectation()
            h.status = try o["status"].map { v throws(ScenarioProblem) in try reader.int(v, at: pointer + "/status", what: "the status", range: 100...599) }
            h.errorCode = try o["errorCode"].map { v throws(ScenarioProblem) in try reader.nonEmptyString(v, at: pointer + "/errorCode", what: "the error code") }
            h.errorField = try o["errorField"].map { v throws(ScenarioProblem) in try reader.nonEmptyString(v, at: pointer + "/errorField", what: "the error field") }
            if let hv = o["headers"] {
                h.headers = try patternMap(hv, at: pointer + "/headers", what: "the header patterns", reader).map { (name: $0.0, pattern: $0.1) }
            }
            if let bv = o["bodyMatches"] {
                h.bodyMatches = try patternMap(bv, at: pointer + "/bodyMatches", what: "the body patterns", pointerKeys: true, reader).map { (pointer: $0.0, pattern: $0.1) }
            }
            if let bv = o["bodyEquals"] {
                guard let bo = bv.objectValue else { throw reader.problem(pointer + "/bodyEquals", "expected bodyEquals as an object of JSON pointer → value, found \(bv.typeName)") }
                for (key, value) in bo {
                    guard key.isEmpty || key.hasPrefix("/") else {
                        throw reader.problem(JSONPointer.appending(pointer + "/bodyEquals", key), "expected a JSON pointer such as \"/id\"; found \"\(key)\"")
                    }
                    h.bodyEquals.append((pointer: key, value: value))
                }
            }
            e.http = h
        }
        if let v = o["journal"] {
            e.journal = try parseJournal(v, at: pointer + "/journal", reader)
            let submits: Bool
            if case .client(let a) = action { submits = [.submit, .doubleTapContinue, .retry].contains(a) } else { submits = false }
            if e.journal?.checksSentBodies == true, !submits {
                throw reader.problem(pointer + "/journal", "sentReport, sentBody and sentBodyMatches check what a submission sent; they apply to submit, doubleTapContinue and retry steps only")
            }
        }
        if let v = o["passwordOpensPhoto"] {
            let submits: Bool
            if case .client(let a) = action { submits = [.submit, .doubleTapContinue, .retry].contains(a) } else { submits = false }
            guard submits else { throw reader.problem(pointer + "/passwordOpensPhoto", "passwordOpensPhoto checks the summary after a submission; it applies to submit, doubleTapContinue and retry steps only") }
            e.passwordOpensPhoto = try reader.bool(v, at: pointer + "/passwordOpensPhoto", what: "passwordOpensPhoto")
        }
        if let v = o["because"] { e.because = try reader.nonEmptyString(v, at: pointer + "/because", what: "the reason") }
        return e
    }

    /// Input name → accepted text: one text, or a list of texts any of which is accepted (where the seeds allow several readings).
    func parseInputs(_ value: JSONValue, at pointer: String, _ reader: ScenarioReader) throws(ScenarioProblem) -> [String: [String]] {
        try parseAlternatives(value, at: pointer, what: "the inputs", keys: nil, reader)
    }

    /// Name → accepted texts, each written as one text or a list of texts.
    func parseAlternatives(_ value: JSONValue, at pointer: String, what: String, keys: [String]?, _ reader: ScenarioReader) throws(ScenarioProblem) -> [String: [String]] {
        guard let o = value.objectValue else { throw reader.problem(pointer, "expected \(what) as a JSON object, found \(value.typeName)") }
        var result: [String: [String]] = [:]
        for (key, v) in o {
            let p = JSONPointer.appending(pointer, key)
            if let keys, !keys.contains(key) {
                throw reader.problem(p, "unknown key \"\(key)\" in \(what); expected one of: \(keys.joined(separator: ", "))")
            }
            if let list = v.arrayValue {
                guard !list.isEmpty else { throw reader.problem(p, "list at least one accepted value") }
                result[key] = try list.enumerated().map { (i, item) throws(ScenarioProblem) in try reader.text(item, at: p + "/\(i)", what: "an accepted value") }
            } else {
                result[key] = [try reader.text(v, at: p, what: "the value of \"\(key)\"")]
            }
        }
        return result
    }

    func stringList(_ value: JSONValue, at pointer: String, what: String, _ reader: ScenarioReader) throws(ScenarioProblem) -> [String] {
        try reader.array(value, at: pointer, what: what).enumerated().map { (i, item) throws(ScenarioProblem) in
            try reader.string(item, at: pointer + "/\(i)", what: "an entry of \(what)")
        }
    }

    func patternMap(_ value: JSONValue, at pointer: String, what: String, pointerKeys: Bool = false, _ reader: ScenarioReader) throws(ScenarioProblem) -> [(String, TextPattern)] {
        guard let o = value.objectValue else { throw reader.problem(pointer, "expected \(what) as a JSON object, found \(value.typeName)") }
        var result: [(String, TextPattern)] = []
        for (key, v) in o {
            let p = JSONPointer.appending(pointer, key)
            if pointerKeys, !(key.isEmpty || key.hasPrefix("/")) {
                throw reader.problem(p, "expected a JSON pointer such as \"/id\"; found \"\(key)\"")
            }
            result.append((key, try reader.pattern(v, at: p, what: "the pattern")))
        }
        return result
    }

    func parseJournal(_ value: JSONValue, at pointer: String, _ reader: ScenarioReader) throws(ScenarioProblem) -> JournalExpectation {
        let o = try reader.object(value, at: pointer, allowed: Self.journalKeys, what: "the journal expectation")
        var j = JournalExpectation()
        if let v = o["calls"] {
            guard let co = v.objectValue else { throw reader.problem(pointer + "/calls", "expected calls as an object of contract id → count, found \(v.typeName)") }
            for (contract, n) in co {
                j.calls.append((contract: contract, count: try reader.int(n, at: JSONPointer.appending(pointer + "/calls", contract), what: "the call count", range: 0...10_000)))
            }
        }
        if let v = o["order"] {
            j.order = try reader.array(v, at: pointer + "/order", what: "the call order").enumerated().map { (i, c) throws(ScenarioProblem) in
                try reader.nonEmptyString(c, at: pointer + "/order/\(i)", what: "a contract id")
            }
        }
        if let v = o["noRequests"] { j.noRequests = try reader.bool(v, at: pointer + "/noRequests", what: "noRequests") }
        if let v = o["authUserIsCreatedId"] { j.authUserIsCreatedId = try reader.bool(v, at: pointer + "/authUserIsCreatedId", what: "authUserIsCreatedId") }
        if let v = o["announcements"] { j.announcements = try reader.int(v, at: pointer + "/announcements", what: "the announcement count", range: 0...1_000_000) }
        if let v = o["sentReport"] { j.sentReport = try reader.bool(v, at: pointer + "/sentReport", what: "sentReport") }
        if let v = o["sentBody"] {
            guard let bo = v.objectValue else { throw reader.problem(pointer + "/sentBody", "expected sentBody as an object of JSON pointer → value, found \(v.typeName)") }
            for (key, value) in bo {
                guard key.hasPrefix("/") else {
                    throw reader.problem(JSONPointer.appending(pointer + "/sentBody", key), "expected a JSON pointer into the create body such as \"/reward\"; found \"\(key)\"")
                }
                j.sentBody.append((pointer: key, value: value))
            }
        }
        if let v = o["sentBodyMatches"] {
            j.sentBodyMatches = try patternMap(v, at: pointer + "/sentBodyMatches", what: "the sent body patterns", pointerKeys: true, reader).map { (pointer: $0.0, pattern: $0.1) }
        }
        if j.noRequests && j.checksSentBodies {
            throw reader.problem(pointer + "/noRequests", "\"noRequests\" contradicts the checks of sent bodies listed next to it")
        }
        if j.noRequests && (!j.calls.isEmpty || !(j.order ?? []).isEmpty) {
            throw reader.problem(pointer + "/noRequests", "\"noRequests\" contradicts the calls or order listed next to it")
        }
        return j
    }
}
