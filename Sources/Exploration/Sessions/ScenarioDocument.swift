import ContractKit
import ContractModel
import Foundation
import ScenarioEngine

/// Writes a session and its modelled steps as an ordinary scenario file (self-contained: the report and photo inline).
public struct ScenarioDocument: Sendable {
    /// The report every session starts from, inline.
    public let baseReport: JSONObject

    /// A writer starting from `baseReport`.
    public init(baseReport: JSONObject) { self.baseReport = baseReport }

    /// The bundled `default` report with its photo inlined, so a saved scenario needs no fixtures folder.
    public static func bundledDefaultReport() throws -> JSONObject {
        try defaultReport(fixtures: ScenarioLibrary.bundledDirectory.appendingPathComponent("fixtures"))
    }

    /// The `default` report of the fixtures folder `fixtures` (a profile's library has its own) with its photo inlined.
    public static func defaultReport(fixtures: URL) throws -> JSONObject {
        let data = try Data(contentsOf: fixtures.appendingPathComponent("default.json"))
        guard var report = try JSONValue(parsing: data).objectValue else { throw ExplorationError("fixtures/default.json is not a JSON object") }
        if let file = report["photo"]?["file"]?.stringValue {
            let bytes = try Data(contentsOf: fixtures.appendingPathComponent(file))
            report["photo"] = ["base64": .string(bytes.base64EncodedString()), "mimeType": report["photo"]?["mimeType"] ?? "image/jpeg"]
        }
        return report
    }

    /// The session's report: the base with omitted fields removed and the picked date.
    public func report(for session: Session) -> JSONObject {
        var report = baseReport
        for name in session.omittedFields { report[name] = Optional<JSONValue>.none }
        if let date = session.lastSeenDate { report["lastSeenDate"] = .string(date) }
        if let chip = session.microchip { report["microchipNumber"] = .string(chip) }
        for (field, text) in session.reportText where !session.omittedFields.contains(field) { report[field] = .string(text) }
        for (field, number) in session.reportNumbers { report[field] = .number(number) }
        return report
    }

    /// The inputs `form` starts with for `session` (the report's values of its fields).
    public func startInputs(for session: Session, form: SessionForm = .default) -> [String: String] {
        let r = report(for: session)
        return Dictionary(form.fields.map { ($0, r[$0]?.stringValue ?? "") }, uniquingKeysWith: { first, _ in first })
    }

    /// The scenario file for `session` with `steps`; one judged by another profile than the seeds' names it and its flow,
    /// so `spotcheck run` and `lint` take a saved counterexample to the library it belongs to.
    public func document(name: String, summary: String, session: Session, steps: [ModelledStep], profile: ClientProfile = .bundledDefault) -> JSONValue {
        // Drivers may answer the device actions `unsupported`; the tag turns that into a skip, not a failure.
        let optional = steps.contains { ClientAction.optionalNames.contains($0.document["action"]?.stringValue ?? "") }
        var root: JSONObject = ["name": .string(name), "summary": .string(summary), "tags": optional ? ["explored", "optional-protocol"] : ["explored"],
                                "report": .object(report(for: session))]
        if profile.name != ClientProfile.bundledDefault.name {
            root["profile"] = .string(profile.name)
            root["flow"] = .string(profile.flow.name)
        }
        if session.faults.contains(where: \.isTimed) {
            root["client"] = ["timeoutMs": .number(Double(SeedModel.timingTimeoutMs))]
        } else if session.faults.contains(where: { [.stall, .drop, .reset, .truncate, .refuse, .refuseAfterAnswer].contains($0.kind) }) {
            root["client"] = ["timeoutMs": .number(Double(SeedModel.stallTimeoutMs))]
        }
        if !session.stored.isEmpty { root["backend"] = ["fixtures": ["announcements": .array(session.stored.map(\.fixture))]] }
        if !session.faults.isEmpty { root["faults"] = .array(session.faults.map(\.rule)) }
        root["steps"] = .array(steps.map(\.document))
        return .object(root)
    }
}
