import ContractKit
import ContractModel
import Foundation

/// A folder of scenario files (`*.json` at its top level) with named fixtures in its `fixtures/` subfolder.
public struct ScenarioLibrary: Sendable {
    /// The scenarios, sorted by file name so runs and reports are stable.
    public let scenarios: [Scenario]
    /// The folder they came from.
    public let directory: URL

    /// The scenarios folder bundled with this checkout (found from #filePath: <repo>/scenarios).
    public static var bundledDirectory: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // Model
            .deletingLastPathComponent()  // ScenarioEngine
            .deletingLastPathComponent()  // Sources
            .deletingLastPathComponent()  // repository root
            .appendingPathComponent("scenarios", isDirectory: true)
    }

    /// The file name of a client profile, which a library folder may hold beside its scenarios.
    public static let profileFileName = "profile.json"

    /// The scenario files of a folder, sorted by name.
    public static func scenarioFiles(in directory: URL) throws(ScenarioLoadError) -> [URL] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ScenarioLoadError(problems: [ScenarioProblem(file: directory.path, pointer: "", message: "no scenarios folder here; expected a folder of scenario files")])
        }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw ScenarioLoadError(problems: [ScenarioProblem(file: directory.path, pointer: "", message: "cannot list the folder: \(FileErrorText.reason(error))")])
        }
        // A client profile's folder holds its library beside its profile.json, which is not a scenario.
        return names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") && $0 != profileFileName }.sorted().map { directory.appendingPathComponent($0) }
    }

    /// Loads every scenario in `directory`; throws every problem in every file, so one lint pass shows them all.
    public static func load(from directory: URL) throws(ScenarioLoadError) -> ScenarioLibrary {
        let (scenarios, problems) = try loadEach(from: directory)
        if !problems.isEmpty { throw ScenarioLoadError(problems: problems) }
        return ScenarioLibrary(scenarios: scenarios, directory: directory)
    }

    /// The scenarios that load and the problems of those that do not (plus duplicate names); throws only when the folder cannot be listed.
    public static func loadEach(from directory: URL) throws(ScenarioLoadError) -> (scenarios: [Scenario], problems: [ScenarioProblem]) {
        let parser = ScenarioParser(fixturesDirectory: directory.appendingPathComponent("fixtures", isDirectory: true))
        var problems: [ScenarioProblem] = []
        var scenarios: [Scenario] = []
        var firstFileByName: [String: String] = [:]
        for file in try scenarioFiles(in: directory) {
            do {
                let scenario = try parser.parse(file: file, displayPath: file.lastPathComponent)
                if let other = firstFileByName[scenario.name] {
                    problems.append(ScenarioProblem(file: scenario.displayPath, pointer: "/name", message: "the name \"\(scenario.name)\" is already used by \(other); names must be unique because filters and shards select by name"))
                } else {
                    firstFileByName[scenario.name] = scenario.displayPath
                    scenarios.append(scenario)
                }
            } catch {
                problems.append(contentsOf: error.problems)
            }
        }
        return (scenarios, problems)
    }
}
