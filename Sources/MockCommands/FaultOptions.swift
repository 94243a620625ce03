import ArgumentParser
import Foundation
import MockBackend

/// Fault-injection flags shared by `serve` and `proxy`: a rules file, shortcuts, presets and `--offline`.
struct FaultOptions: ParsableArguments {
    @Option(name: .customLong("faults"), help: ArgumentHelp("A JSON fault rules file ({\"rules\": [...]}); see docs/faults.md.", valueName: "file"))
    var faultsFile: String?

    @Option(name: .customLong("fault"), help: ArgumentHelp(
        "A fault shortcut CONTRACT:KIND[:ARG][@CALLS], repeatable, CONTRACT a contract id of the loaded set or *: <id>:503, <id>:stall, <id>:503@2, *:delay:1500 (an unknown id is refused, naming the known ones).",
        valueName: "shortcut"))
    var shortcuts: [String] = []

    @Option(help: ArgumentHelp("A named fault set: flaky (seeded 503s and drops), slow (+1.5 s), offline (refuse connections).", valueName: "name"))
    var preset: FaultPreset?

    @Flag(help: "Refuse every connection (the admin port stays reachable) until the rules change.")
    var offline = false

    /// The rules in first-match order: shortcuts, then the file, then the preset, then `--offline`.
    ///
    /// With `knownContracts`, a rule naming any other contract is an error (exit 2), whichever source it came from.
    func rules(seed: UInt64? = nil, knownContracts: [String]? = nil) throws(FaultRuleError) -> [FaultRule] {
        func checked(_ rules: [FaultRule], source: String) throws(FaultRuleError) -> [FaultRule] {
            if let knownContracts { try FaultRule.checkContracts(rules, known: knownContracts, source: source) }
            return rules
        }
        var rules: [FaultRule] = []
        for shortcut in shortcuts {
            rules += try checked([FaultRule.parseShortcut(shortcut)], source: "--fault \(shortcut)")
        }
        if let faultsFile {
            rules += try checked(FaultRule.loadRules(from: URL(fileURLWithPath: faultsFile)), source: faultsFile)
        }
        if let preset {
            rules += try checked(preset.rules(seed: seed), source: "--preset \(preset.rawValue)")
        }
        if offline {
            rules += FaultPreset.offline.rules(seed: seed)
        }
        return rules
    }
}

extension FaultPreset: ExpressibleByArgument {}
