import ContractKit
import ContractModel
import Foundation
import MockBackend

/// A scenario that replays an imported session against the mock: the user's actions read back from the calls they
/// caused, the session's failures as fault rules on the matching calls, and a `todo` on each step whose outcome the
/// HAR cannot tell (what the app showed after a failure), which `spotcheck lint` reports until it is written.
public enum HARScenarioSkeleton {
    /// The calls each client action sends, by what their contracts do (`operations`): a create starts a submission, an
    /// upload is its second step, a read of one record loads details and a list lists; an exchange of any other contract
    /// is no user action and is left out of the steps (its failures still become fault rules).
    private enum Role {
        case submissionStart, submissionSecond, detailsLoad, listLoad, other

        init(_ contract: String, _ operations: FlowOperations) {
            if operations.isCreate(contract) {
                self = .submissionStart
            } else if operations.isUpload(contract) {
                self = .submissionSecond
            } else if operations.isRead(contract) {
                self = .detailsLoad
            } else if operations.lists.contains(contract) {
                self = .listLoad
            } else {
                self = .other
            }
        }
    }

    private struct Attempt {
        var action: JSONObject
        var contracts: [String] = []
        var failures: [String] = []
    }

    /// The scenario document. `fixturesFile` names the fixtures written beside it (in the scenarios' `fixtures/`).
    public static func document(name: String, source: String, exchanges: [ImportedExchange], fixturesFile: String?,
                                operations: FlowOperations) -> JSONValue {
        var attempts: [Attempt] = []
        var faults: [JSONValue] = []
        var callCounts: [String: Int] = [:]
        var leftOut: [String: Int] = [:]
        var report: JSONObject?
        var timedOut = false
        var lastDetailsFailed: String?
        var submissionFailed = false
        for exchange in exchanges {
            guard let contract = exchange.entry.contract else { continue }
            callCounts[contract, default: 0] += 1
            let failed = exchange.fault != nil || (exchange.entry.status ?? 0) >= 400
            if let fault = exchange.fault {
                faults.append(.object(["name": .string("\(exchange.label) of \(source)"), "contract": .string(contract),
                                       "calls": [.number(Double(callCounts[contract] ?? 1))], "fault": fault]))
                timedOut = timedOut || exchange.timedOut
            }
            let failure = failed ? "\(contract) \(exchange.fault.map(describe) ?? "answered \(exchange.entry.status ?? 0)") (\(exchange.label))" : nil
            let role = Role(contract, operations)
            switch role {
            case .submissionStart:
                if report == nil { report = reportFields(exchange.entry) }
                attempts.append(Attempt(action: ["action": .string(submissionFailed ? "retry" : "submit")], contracts: [contract]))
            case .submissionSecond:
                if !operations.isCreate(attempts.last?.contracts.last) {
                    attempts.append(Attempt(action: ["action": .string(submissionFailed ? "retry" : "submit")], contracts: []))
                }
                attempts[attempts.count - 1].contracts.append(contract)
            case .detailsLoad:
                let id = operations.readTarget(exchange.entry.path, contract: contract) ?? ""
                let again = lastDetailsFailed == id
                attempts.append(Attempt(action: again ? ["action": "retryDetails"] : ["action": "loadDetails", "id": .string(id)], contracts: [contract]))
                lastDetailsFailed = failed ? id : nil
            case .listLoad:
                var action: JSONObject = ["action": "list"]
                let query = listQuery(exchange.entry.query)
                if !query.isEmpty { action["query"] = .object(query) }
                attempts.append(Attempt(action: action, contracts: [contract]))
            case .other:
                leftOut[contract, default: 0] += 1
                continue
            }
            if let failure { attempts[attempts.count - 1].failures.append(failure) }
            if role == .submissionStart || role == .submissionSecond {
                submissionFailed = !attempts[attempts.count - 1].failures.isEmpty
            }
        }
        var steps: [JSONValue] = []
        for attempt in attempts {
            var step = attempt.action
            var expect: JSONObject = [:]
            if attempt.failures.isEmpty {
                expect["outcome"] = "success"
            } else {
                step["todo"] = .string("the session met " + attempt.failures.joined(separator: ", then ")
                    + ": say what the app must show (\"outcome\", \"alert\", \"inputsIntact\")")
            }
            expect["journal"] = .object(["order": .array(attempt.contracts.map(JSONValue.string))])
            step["expect"] = .object(expect)
            steps.append(.object(step))
        }
        var summary = "Replays \(source) (spotcheck import har): \(exchanges.count) exchanges, \(faults.count) of them failures reproduced as fault rules."
        if !leftOut.isEmpty {
            summary += " Left out of the steps (no user action sends them): " + leftOut.sorted { $0.key < $1.key }.map { "\($0.key) ×\($0.value)" }.joined(separator: ", ") + "."
        }
        summary += " Beyond the seeds: a recorded session; fill in each todo from the seeds."
        var tags: [JSONValue] = ["imported", "har"]
        // `list` is an optional protocol action (scenarios/README.md, Tags): drivers without it skip the scenario.
        if attempts.contains(where: { $0.action["action"] == "list" }) { tags.append("optional-protocol") }
        var document: JSONObject = ["name": .string(name), "summary": .string(summary), "tags": .array(tags)]
        // Inline, so the skeleton runs from any scenarios folder: what the session entered, else the library's default report.
        let bundled = (try? JSONValue(parsing: Data(contentsOf: ScenarioLibrary.bundledDirectory.appendingPathComponent("fixtures/default.json"))))?.objectValue
        if var inline = report ?? bundled {
            inline["photo"] = .object(["base64": .string(placeholderPhoto)])
            document["report"] = .object(inline)
        } else {
            document["report"] = "default"
        }
        if timedOut { document["client"] = .object(["timeoutMs": 1000]) }
        if let fixturesFile { document["backend"] = .object(["fixtures": .string(fixturesFile)]) }
        if !faults.isEmpty { document["faults"] = .array(faults) }
        document["steps"] = .array(steps)
        return .object(document)
    }

    /// A 2×2 PNG: the HAR rarely keeps the photo whole, and the backend only sniffs that it is an image.
    static let placeholderPhoto = "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGM4UaEBRAwQCgAp7gWhjAnOiAAAAABJRU5ErkJggg=="

    private static func describe(_ fault: JSONValue) -> String {
        switch fault["kind"]?.stringValue {
        case "status": return "answered \(fault["status"]?.intValue ?? 0)"
        case "stall": return "timed out"
        case "refuse": return "was refused"
        default: return "lost its connection"
        }
    }

    /// What the user entered, read back from the create request's JSON body.
    private static func reportFields(_ entry: JournalEntry) -> JSONObject? {
        guard let body = entry.requestBody, let json = try? JSONValue(parsing: body.bytes), let object = json.objectValue else { return nil }
        let kept = object.filter { ReportData.fieldNames.contains($0.key) && !$0.value.isNull }
        return kept.isEmpty ? nil : JSONObject(kept.map { ($0.key, $0.value) })
    }

    private static func listQuery(_ query: String?) -> JSONObject {
        var o = JSONObject()
        for pair in (query ?? "").split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, let value = Double(parts[1]) else { continue }
            switch parts[0] {
            case "lat": o["lat"] = .number(value)
            case "lng": o["lng"] = .number(value)
            case "range": o["range"] = .number(value.rounded())
            default: continue
            }
        }
        return o
    }
}
