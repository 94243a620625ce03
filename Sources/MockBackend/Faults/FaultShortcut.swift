import ContractModel
import Foundation

extension FaultRule {
    /// Parses a command-line shortcut `SELECTOR:KIND[:ARG[:ARG]][@CALLS]`, e.g. `getItem:503`,
    /// `createItem:stall`, `getItem:503@2`, `*:delay:1500`, `getItem:truncate:100@1-2`, `*:slowBody:64:200`.
    ///
    /// SELECTOR is a contract id or `*` for every request; CALLS is a list such as `2`, `1,3` or `2-4`, `3-`.
    public static func parseShortcut(_ text: String) throws(FaultRuleError) -> FaultRule {
        func failure(_ message: String) -> FaultRuleError {
            FaultRuleError(file: "--fault \(text)", pointer: "", message: message)
        }
        var body = Substring(text.trimmingCharacters(in: .whitespaces))
        var calls: [ClosedRange<Int>]?
        if let at = body.lastIndex(of: "@") {
            let list = body[body.index(after: at)...]
            body = body[..<at]
            var ranges: [ClosedRange<Int>] = []
            for item in list.split(separator: ",", omittingEmptySubsequences: false) {
                guard let range = CallRange.parse(String(item)) else {
                    throw failure("\"\(item)\" is not a call number or range; write e.g. @2, @1,3 or @2-4")
                }
                ranges.append(range)
            }
            calls = ranges
        }
        let parts = body.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.count >= 2, !parts[0].isEmpty, !parts[1].isEmpty else {
            throw failure("expected CONTRACT:KIND, a contract id (or * for every request) and a fault, e.g. CONTRACT:503 or *:stall")
        }
        let selector = parts[0] == "*" ? FaultSelector() : FaultSelector(contract: parts[0])
        let kind = parts[1]
        let args = Array(parts.dropFirst(2))

        // The same ranges as the rule file (FaultRanges): milliseconds become NIO nanoseconds on every request.
        func number(_ index: Int, _ what: String, minimum: Int = 0) throws(FaultRuleError) -> Int {
            guard index < args.count else { throw failure("\(kind) needs \(what), e.g. \(example(kind, selector: parts[0]))") }
            let maximum = what == "milliseconds" || what.hasSuffix(" ms") ? FaultRanges.maxMilliseconds : what.contains("byte") ? FaultRanges.maxBytes : FaultRanges.maxCount
            guard let n = Int(args[index]), n >= minimum, n <= maximum else {
                throw failure("\(what) must be a whole number from \(minimum) to \(maximum), got \"\(args[index])\"")
            }
            return n
        }
        func expectArguments(_ count: Int) throws(FaultRuleError) {
            if args.count > count { throw failure("too many parts for \(kind); e.g. \(example(kind, selector: parts[0]))") }
        }

        let fault: Fault
        if let status = Int(kind) {
            if let problem = Fault.finalStatusProblem(status) { throw failure(problem) }
            try expectArguments(0)
            fault = .status(status)
        } else {
            switch kind {
            case "status":
                try expectArguments(1)
                let status = try number(0, "a status")
                if let problem = Fault.finalStatusProblem(status) { throw failure(problem) }
                fault = .status(status)
            case "delay":
                try expectArguments(1)
                fault = .delay(ms: try number(0, "milliseconds"))
            case "stall":
                try expectArguments(0)
                fault = .stall
            case "drop":
                try expectArguments(0)
                fault = .drop
            case "reset":
                try expectArguments(0)
                fault = .reset
            case "truncate":
                try expectArguments(1)
                fault = .truncate(bytes: try number(0, "a byte count"))
            case "malformed":
                try expectArguments(1)
                if args.isEmpty {
                    fault = .malformed()
                } else {
                    let status = try number(0, "a 2xx status")
                    guard (200...299).contains(status) else { throw failure("a malformed answer is a 2xx, got \(status)") }
                    fault = .malformed(status: status)
                }
            case "slowBody":
                try expectArguments(2)
                fault = .slowBody(chunkBytes: try number(0, "chunk bytes", minimum: 1), intervalMs: try number(1, "an interval in ms"))
            case "refuse":
                try expectArguments(1)
                fault = .refuse(ms: args.isEmpty ? nil : try number(0, "milliseconds"))
            default:
                throw failure("unknown fault kind \"\(kind)\"; use a status such as 503 or one of \(Fault.kinds.joined(separator: ", "))")
            }
        }
        return FaultRule(name: "--fault \(text)", selector: selector, calls: calls, fault: fault)
    }

    /// A complete shortcut of `kind` on the user's own selector: the example names their contract, not one of ours.
    private static func example(_ kind: String, selector: String) -> String {
        switch kind {
        case "delay": return "\(selector):delay:1500"
        case "truncate": return "\(selector):truncate:100"
        case "slowBody": return "\(selector):slowBody:64:200"
        case "refuse": return "\(selector):refuse:5000"
        case "status": return "\(selector):status:503"
        default: return "\(selector):503"
        }
    }
}
