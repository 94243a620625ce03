import Foundation

/// GitHub Actions workflow commands (`::error file=…,line=…,title=…::message`) that put a result on the line at fault.
public enum GitHubAnnotations {
    /// Whether the environment is a GitHub Actions job (`GITHUB_ACTIONS=true`), the only place the commands mean anything.
    public static func isEnabled(in environment: [String: String]) -> Bool {
        environment["GITHUB_ACTIONS"] == "true"
    }

    /// One command per result that has a level, in the report's order.
    public static func lines(_ report: CIReport) -> [String] {
        report.results.compactMap(line)
    }

    /// The command for `result`, or nil when it is not reported on a line (no level).
    public static func line(_ result: CIResult) -> String? {
        guard let level = result.level else { return nil }
        var properties: [(String, String)] = []
        if let location = result.location {
            properties.append(("file", location.file))
            if let line = location.line { properties.append(("line", String(line))) }
            if let column = location.column { properties.append(("col", String(column))) }
        }
        properties.append(("title", result.name))
        let text = properties.map { "\($0.0)=\(escapeProperty($0.1))" }.joined(separator: ",")
        let message = result.details ?? result.message ?? result.status.rawValue
        return "::\(level.rawValue) \(text)::\(escapeData(message))"
    }

    /// A message made safe for a workflow command: `%`, CR and LF are percent-encoded, as GitHub's runner decodes them.
    public static func escapeData(_ text: String) -> String {
        var out = ""
        for character in text.unicodeScalars {
            switch character {
            case "%": out += "%25"
            case "\r": out += "%0D"
            case "\n": out += "%0A"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }

    /// A property value made safe: as `escapeData`, and `:` and `,` too, which end a property.
    public static func escapeProperty(_ text: String) -> String {
        escapeData(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}
