import ArgumentParser
import Foundation
import MockBackend

/// Fault-injection flags shared by `serve` and `proxy`: a rules file, shortcuts, presets and `--offline`.
struct FaultOptions: ParsableArguments {
    @Option(name: .customLong("faults"), help: ArgumentHelp("A JSON fault rules file ({\"rules\": [...]}); see docs/faults.md.", valueName: "file"))
    var faultsFile: String?

    @Option(name: .customLong("fault"), help: ArgumentHelp(
        "A fault shortcut CONTRACT:KIND[:ARG][@CALLS], repeatable: uploadPhoto:503, createAnnouncement:stall, uploadPhoto:503@2, *:delay:1500.",
        valueName: "shortcut"))
    var shortcuts: [String] = []

    @Option(help: ArgumentHelp("A named fault set: flaky (seeded 503s and drops), slow (+1.5 s), offline (refuse connections).", valueName: "name"))
    var preset: FaultPreset?

    @Flag(help: "Refuse every connection (the admin port stays reachable) until the rules change.")
    var offline = false

    /// The rules in first-match order: shortcuts, then the file, then the preset, then `--offline`.
    func rules(seed: UInt64? = nil) throws(FaultRuleError) -> [FaultRule] {
        var rules: [FaultRule] = []
        for shortcut in shortcuts {
            rules.append(try FaultRule.parseShortcut(shortcut))
        }
        if let faultsFile {
            rules += try FaultRule.loadRules(from: URL(fileURLWithPath: faultsFile))
        }
        if let preset {
            rules += preset.rules(seed: seed)
        }
        if offline {
            rules += FaultPreset.offline.rules(seed: seed)
        }
        return rules
    }
}

extension FaultPreset: ExpressibleByArgument {}
