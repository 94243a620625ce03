import Foundation

extension ClientProfile {
    /// The name of the default profile: the seeds' iOS report of a missing pet, which every command judges by unless told otherwise.
    public static let defaultName = "ios-missing-pet"

    /// The profile file of `name` in a scenarios folder: `<scenarios>/<name>/profile.json`.
    public static func file(named name: String, in scenariosDirectory: URL) -> URL {
        scenariosDirectory.appendingPathComponent(name, isDirectory: true).appendingPathComponent("profile.json")
    }

    /// Loads the profile `name` from `scenariosDirectory` (`<name>/profile.json`, or its own `profile.json` when the
    /// folder is the profile's, as `--scenarios scenarios/NAME` names it), or from a path to a profile file or its
    /// folder; throws every problem with the file and pointer.
    public static func load(_ name: String, scenariosDirectory: URL) throws(ScenarioLoadError) -> ClientProfile {
        var isDirectory: ObjCBool = false
        let given = URL(fileURLWithPath: name)
        let file: URL
        if name.contains("/"), FileManager.default.fileExists(atPath: given.path, isDirectory: &isDirectory) {
            file = isDirectory.boolValue ? given.appendingPathComponent("profile.json") : given
        } else if scenariosDirectory.standardizedFileURL.lastPathComponent == name {
            file = scenariosDirectory.appendingPathComponent(ScenarioLibrary.profileFileName)
        } else {
            file = Self.file(named: name, in: scenariosDirectory)
        }
        guard FileManager.default.fileExists(atPath: file.path) else {
            let known = available(in: scenariosDirectory)
            throw ScenarioLoadError(problems: [ScenarioProblem(
                file: file.path, pointer: "",
                message: "no client profile \"\(name)\" here" + (known.isEmpty ? "" : "; the profiles in \(scenariosDirectory.path) are: \(known.joined(separator: ", "))"))])
        }
        let display = file.deletingLastPathComponent().lastPathComponent + "/" + file.lastPathComponent
        return try ClientProfileParser().parse(file: file, displayPath: display)
    }

    /// The names of the profiles in a scenarios folder (its subfolders holding a `profile.json`), sorted.
    public static func available(in scenariosDirectory: URL) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: scenariosDirectory.path)) ?? []
        return names.filter { FileManager.default.fileExists(atPath: file(named: $0, in: scenariosDirectory).path) }.sorted()
    }

    /// The default profile bundled with this checkout (`scenarios/ios-missing-pet/profile.json`), read once.
    ///
    /// It is part of the checkout as the contracts are, and `ClientProfileTests` lints it, so a broken one stops the
    /// engine at once with its problems rather than judging by half a profile.
    public static let bundledDefault: ClientProfile = {
        do throws(ScenarioLoadError) {
            return try load(defaultName, scenariosDirectory: ScenarioLibrary.bundledDirectory)
        } catch {
            preconditionFailure("the bundled client profile does not load:\n\(error.description)")
        }
    }()
}
