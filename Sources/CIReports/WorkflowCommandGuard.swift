import Foundation

/// Keeps untrusted text from starting a GitHub Actions workflow command.
///
/// The runner reads every line a step prints and runs it as a command when, after leading whitespace, it starts with
/// `::` (or holds `##[`, the older form). A scenario name, a file name, a contract key or a server's message can hold a
/// line break followed by `::error …` or `::stop-commands::TOKEN` (which would silence every real annotation after
/// it), so inside GitHub Actions every line SpotCheck prints passes through `neutralize`, and only the annotations
/// SpotCheck builds itself (their values escaped by `GitHubAnnotations`) are printed as commands.
public enum WorkflowCommandGuard {
    /// What a neutralized line starts with: visible, and not whitespace, so the runner sees no command.
    public static let marker = "| "

    /// `text` with each line that would start a workflow command prefixed with `marker`, and every `##[` broken
    /// apart; other lines (and the line breaks) are kept as they are.
    public static func neutralize(_ text: String) -> String {
        guard text.contains("::") || text.contains("##[") else { return text }
        var out = ""
        // \r ends a line for the runner too, so both separators split.
        var current = ""
        for scalar in text.unicodeScalars {
            if scalar == "\n" || scalar == "\r" {
                out += guarded(current) + String(scalar)
                current = ""
            } else {
                current.unicodeScalars.append(scalar)
            }
        }
        out += guarded(current)
        return out
    }

    /// Whether `line` would be read as a workflow command.
    public static func startsCommand(_ line: String) -> Bool {
        line.drop(while: { $0 == " " || $0 == "\t" || $0 == "\u{FEFF}" }).hasPrefix("::") || line.contains("##[")
    }

    private static func guarded(_ line: String) -> String {
        let safe = line.replacingOccurrences(of: "##[", with: "#\u{2060}#[")
        return startsCommand(safe) ? marker + safe : safe
    }

    /// `print` made safe for the environment: inside GitHub Actions (`GITHUB_ACTIONS=true`) every line is neutralized;
    /// elsewhere `print` itself. Annotations SpotCheck builds go to the original `print`.
    public static func guarding(_ print: @escaping @Sendable (String) -> Void, in environment: [String: String]) -> @Sendable (String) -> Void {
        guard GitHubAnnotations.isEnabled(in: environment) else { return print }
        return { text in print(neutralize(text)) }
    }

    /// `text` made safe for the environment, as `guarding` does for each printed text.
    public static func text(_ text: String, in environment: [String: String]) -> String {
        GitHubAnnotations.isEnabled(in: environment) ? neutralize(text) : text
    }
}
