import Foundation

/// The Markdown job summary GitHub shows on a run's page (`GITHUB_STEP_SUMMARY`), readable as a plain file too.
public enum JobSummary {
    /// The environment variable GitHub Actions sets to the file a step appends its summary to.
    public static let environmentVariable = "GITHUB_STEP_SUMMARY"

    /// The summary of `report`: a verdict heading, the counts, every failure with its details, then the rest folded.
    public static func markdown(_ report: CIReport) -> String {
        let failed = report.results.filter { $0.status == .failed }
        let seconds = report.stop.timeIntervalSince(report.start)
        var out = "## \(failed.isEmpty ? "✅" : "❌") \(inline(report.title)): "
        out += failed.isEmpty ? "passed\n\n" : "\(failed.count) failed\n\n"
        for fact in report.facts { out += inline(fact) + "  \n" }
        if !report.facts.isEmpty { out += "\n" }
        out += "| tests | passed | failed | skipped | other | duration |\n| ---: | ---: | ---: | ---: | ---: | ---: |\n"
        out += "| \(report.results.count) | \(report.count(.passed)) | \(report.count(.failed)) | \(report.count(.skipped) + report.count(.pending)) "
        out += "| \(report.count(.other)) | \(String(format: "%.2f", max(0, seconds))) s |\n"
        if !failed.isEmpty {
            out += "\n### Failed\n\n"
            for result in failed { out += section(result) }
        }
        let notable = report.results.filter { $0.status != .failed && $0.level != nil }
        if !notable.isEmpty {
            out += "\n### Notes\n\n"
            for result in notable { out += section(result) }
        }
        for status in [CIResult.Status.other, .skipped, .pending, .passed] {
            let listed = report.results.filter { $0.status == status && $0.level == nil }
            guard !listed.isEmpty else { continue }
            out += "\n<details><summary>\(listed.count) \(status.rawValue)</summary>\n\n"
            for result in listed {
                out += "- \(inline(result.name))"
                if let reason = result.rawStatus ?? result.message { out += " — \(inline(reason))" }
                out += "\n"
            }
            out += "\n</details>\n"
        }
        // A blank line ends an HTML block, so the next step's summary appended to the same file renders as Markdown.
        return out.hasSuffix("\n\n") ? out : out + "\n"
    }

    /// One reported result: its name and place, its one-line message, and the details folded in a code block.
    static func section(_ result: CIResult) -> String {
        var out = "- **\(inline(result.name))**"
        if let location = result.location {
            out += " " + codeSpan(location.file + (location.line.map { ":\($0)" } ?? ""))
        }
        if let message = result.message { out += ": \(inline(message))" }
        out += "\n"
        if let details = result.details, details != result.message {
            out += "\n  <details><summary>details</summary>\n\n" + codeBlock(details, indent: "  ") + "\n  </details>\n\n"
        }
        return out
    }

    /// Text for one line of Markdown: line breaks become spaces and every character Markdown or HTML would interpret is escaped.
    public static func inline(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "\n", "\r", "\r\n": out += " "
            case "\\", "`", "*", "_", "[", "]", "<", ">", "|", "#", "!", "~", "&": out += "\\" + String(character)
            default: out.append(character)
            }
        }
        return out
    }

    /// `text` as one inline code span: line breaks become spaces (a span cannot hold one, and a new line would start
    /// new Markdown), and the fence is longer than any backtick run inside, so nothing can close the span early.
    public static func codeSpan(_ text: String) -> String {
        let flat = String(text.map { $0 == "\n" || $0 == "\r" || $0 == "\r\n" ? " " : $0 })
        var longest = 0
        var run = 0
        for character in flat {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: longest + 1)
        // A span starting or ending with a backtick needs a space inside the fence (CommonMark strips one each side).
        let pad = flat.hasPrefix("`") || flat.hasSuffix("`") || flat.isEmpty ? " " : ""
        return fence + pad + flat + pad + fence
    }

    /// `text` verbatim in a fenced block whose fence is longer than any backtick run inside it.
    public static func codeBlock(_ text: String, indent: String = "") -> String {
        var longest = 0
        var run = 0
        for character in text {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: max(3, longest + 1))
        let body = text.split(separator: "\n", omittingEmptySubsequences: false).map { indent + $0 }.joined(separator: "\n")
        return "\(indent)\(fence)text\n\(body)\n\(indent)\(fence)\n"
    }
}
