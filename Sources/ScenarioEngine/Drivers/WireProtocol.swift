import ContractKit
import ContractModel
import Foundation

/// The JSON-lines protocol between the engine and an external client (see docs/client-protocol.md).
public enum WireProtocol {
    /// The first request of a session: where the server is and what the user entered.
    public static func startRequest(id: Int, context: ClientContext) -> JSONValue {
        var start: JSONObject = [
            "id": .number(Double(id)), "action": "start", "baseURL": .string(context.baseURL.absoluteString),
            "timeoutMs": .number(Double(context.settings.requestTimeoutMs)), "scenario": .string(context.scenarioName),
            "report": context.report.wireValue,
        ]
        // The flow selects the screen; an adapter of one flow may ignore it.
        if let profile = context.profile { start["profile"] = .string(profile) }
        if let flow = context.flow { start["flow"] = .string(flow) }
        return .object(start)
    }

    /// The request for one user action.
    public static func request(id: Int, action: ClientAction) -> JSONValue {
        var o: JSONObject = ["id": .number(Double(id)), "action": .string(action.name)]
        switch action {
        case .editField(let field, let value):
            o["field"] = .string(field)
            o["value"] = .string(value)
        case .loadDetails(let announcementID):
            o["announcementId"] = .string(announcementID)
        case .list(let lat, let lng, let range):
            if let lat { o["lat"] = .number(lat) }
            if let lng { o["lng"] = .number(lng) }
            if let range { o["range"] = .number(Double(range)) }
        case .submit, .doubleTapContinue, .retry, .cancel, .retryDetails, .deviceOffline, .deviceOnline:
            break
        }
        return .object(o)
    }

    /// One request as the line written to the client. A negative zero keeps its sign (`-0.0`): a location class the
    /// user typed as -0 must reach the client as -0, and most JSON parsers read a bare `-0` as the integer 0.
    public static func line(_ request: JSONValue) -> String {
        request.serializedKeepingSignedZero() + "\n"
    }

    /// The last request: the client should exit.
    public static func quitRequest(id: Int) -> JSONValue {
        ["id": .number(Double(id)), "action": "quit"]
    }

    /// Decodes one answer line, checking it answers request `id`; an `unsupported` answer or a `stoppedAt` throws a
    /// `DriverError` whose `reason` says so, whatever the action (`start` included).
    public static func decodeAnswer(_ line: String, expectedID: Int, action: String = "") throws(DriverError) -> JSONValue {
        let value: JSONValue
        do {
            value = try JSONValue(parsing: line)
        } catch {
            throw DriverError("the client wrote a line that is not JSON (\(error.description)): \(excerpt(line))")
        }
        guard let object = value.objectValue else {
            throw DriverError("the client answered with a JSON \(value.typeName) instead of an object: \(excerpt(line))")
        }
        guard object["id"]?.intValue == expectedID else {
            throw DriverError("the client answered request \(object["id"].map { $0.serialized() } ?? "(no id)") while request \(expectedID) was pending: \(excerpt(line))")
        }
        if object["outcome"]?.stringValue == "unsupported" || object["error"]?.stringValue == "unsupported" {
            throw DriverError("the client cannot perform the optional action \"\(action)\"", reason: .unsupported(action: action))
        }
        if let error = object["error"] {
            throw DriverError("the client reported an error for request \(expectedID): \(error.stringValue ?? error.serialized())")
        }
        if let stop = object["stoppedAt"], !stop.isNull {
            guard let step = stop["step"]?.intValue, (1...4).contains(step), let message = stop["message"]?.stringValue else {
                throw DriverError("the answer's \"stoppedAt\" needs \"step\" (1 to 4) and \"message\": \(excerpt(line))")
            }
            throw DriverError("the app stopped the user at step \(step): \"\(message)\"", reason: .stoppedEarlier(EarlierStop(step: step, message: message)))
        }
        return value
    }

    /// Turns a decoded answer into an observation.
    public static func observation(from answer: JSONValue) throws(DriverError) -> ClientObservation {
        let line = answer.serialized()
        guard let outcomeText = answer["outcome"]?.stringValue, let outcome = ClientOutcome(rawValue: outcomeText) else {
            throw DriverError("the answer has no valid \"outcome\" (expected one of \(ClientOutcome.allCases.map(\.rawValue).joined(separator: ", "))): \(excerpt(line))")
        }
        var observation = ClientObservation(outcome: outcome)
        if let alert = answer["alert"], !alert.isNull {
            guard let kind = alert["kind"]?.stringValue else { throw DriverError("the answer's \"alert\" has no \"kind\": \(excerpt(line))") }
            var buttons: [String]?
            if let list = alert["buttons"], !list.isNull {
                guard let items = list.arrayValue, items.allSatisfy({ $0.stringValue != nil }) else {
                    throw DriverError("the answer's \"alert.buttons\" must be an array of button titles: \(excerpt(line))")
                }
                buttons = items.compactMap(\.stringValue)
            }
            observation.alert = ObservedAlert(kind: kind, message: alert["message"]?.stringValue ?? "", buttons: buttons, title: alert["title"]?.stringValue)
        }
        if let cause = answer["cause"], !cause.isNull {
            observation.cause = try Self.cause(from: cause, line: line)
        }
        if let events = answer["analytics"], !events.isNull {
            guard let items = events.arrayValue, items.allSatisfy({ $0.stringValue != nil }) else {
                throw DriverError("the answer's \"analytics\" must be an array of event names: \(excerpt(line))")
            }
            observation.analytics = items.compactMap(\.stringValue)
        }
        observation.inlineError = answer["inlineError"]?.stringValue
        observation.managementPassword = answer["managementPassword"]?.stringValue
        observation.fieldErrors = stringMap(answer["fieldErrors"]) ?? [:]
        observation.inputs = stringMap(answer["inputs"])
        observation.screen = answer["screen"]?.stringValue
        if let d = answer["details"], !d.isNull {
            guard let state = d["state"]?.stringValue else { throw DriverError("the answer's \"details\" has no \"state\": \(excerpt(line))") }
            observation.details = ObservedDetails(state: state, message: d["message"]?.stringValue, presentation: stringMap(d["presentation"]) ?? [:])
        }
        if let ids = answer["listedIds"]?.arrayValue {
            observation.listedIDs = ids.compactMap(\.stringValue)
        }
        return observation
    }

    /// Decodes the optional `cause` object; an unknown kind is an error so a typo never silently weakens a check.
    static func cause(from value: JSONValue, line: String) throws(DriverError) -> ObservedCause {
        let kinds = ObservedCause.Kind.allCases.map(\.rawValue)
        guard let name = value["kind"]?.stringValue, let kind = ObservedCause.Kind(rawValue: name) else {
            throw DriverError("the answer's \"cause\" needs \"kind\": one of \(kinds.joined(separator: ", ")): \(excerpt(line))")
        }
        let cause = ObservedCause(
            kind: kind, domain: value["domain"]?.stringValue, code: value["code"]?.intValue, status: value["status"]?.intValue,
            reason: value["reason"]?.stringValue, detail: value["detail"]?.stringValue, decodingPath: value["decodingPath"]?.stringValue)
        switch kind {
        case .urlError where cause.code == nil:
            throw DriverError("a \"urlError\" cause needs an integer \"code\" (e.g. -1004): \(excerpt(line))")
        case .httpStatus where cause.status == nil:
            throw DriverError("an \"httpStatus\" cause needs an integer \"status\": \(excerpt(line))")
        case .transport where !ObservedCause.transportReasons.contains(cause.reason ?? ""):
            throw DriverError("a \"transport\" cause needs \"reason\": one of \(ObservedCause.transportReasons.joined(separator: ", ")): \(excerpt(line))")
        default:
            return cause
        }
    }

    /// Encodes an observation as an answer line (used by in-process tests and by clients written in Swift).
    public static func answer(id: Int, observation: ClientObservation) -> JSONValue {
        var o: JSONObject = ["id": .number(Double(id)), "outcome": .string(observation.outcome.rawValue)]
        if let alert = observation.alert {
            var a: JSONObject = ["kind": .string(alert.kind), "message": .string(alert.message)]
            if let buttons = alert.buttons { a["buttons"] = .array(buttons.map { .string($0) }) }
            if let title = alert.title { a["title"] = .string(title) }
            o["alert"] = .object(a)
        }
        if let cause = observation.cause { o["cause"] = cause.wireValue }
        if let events = observation.analytics { o["analytics"] = .array(events.map { .string($0) }) }
        if let p = observation.managementPassword { o["managementPassword"] = .string(p) }
        if let inline = observation.inlineError { o["inlineError"] = .string(inline) }
        if !observation.fieldErrors.isEmpty { o["fieldErrors"] = object(observation.fieldErrors) }
        if let inputs = observation.inputs { o["inputs"] = object(inputs) }
        if let screen = observation.screen { o["screen"] = .string(screen) }
        if let d = observation.details {
            var details: JSONObject = ["state": .string(d.state), "presentation": object(d.presentation)]
            if let m = d.message { details["message"] = .string(m) }
            o["details"] = .object(details)
        }
        if let ids = observation.listedIDs { o["listedIds"] = .array(ids.map { .string($0) }) }
        return .object(o)
    }

    static func object(_ map: [String: String]) -> JSONValue {
        .object(JSONObject(map.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }))
    }

    static func stringMap(_ value: JSONValue?) -> [String: String]? {
        guard let o = value?.objectValue else { return nil }
        var map: [String: String] = [:]
        for (k, v) in o {
            map[k] = v.stringValue ?? (v.isNull ? "" : v.serialized())
        }
        return map
    }

    static func excerpt(_ line: String) -> String {
        line.count > 200 ? String(line.prefix(200)) + "…" : line
    }
}
