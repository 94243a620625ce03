import Foundation
import ContractKit
import ContractModel

extension FaultRule {
    /// Parses `{"rules": [...]}` or a bare `[...]` of rules, rejecting unknown keys and bad values with file and JSON pointer.
    public static func parseRules(_ json: JSONValue, file: String) throws(FaultRuleError) -> [FaultRule] {
        let reader = RuleReader(file: file)
        let list: [JSONValue]
        let base: String
        switch json {
        case .array(let items):
            list = items
            base = ""
        case .object(let o):
            try reader.rejectUnknown(o, allowed: ["rules"], at: "")
            guard let rules = o["rules"] else { throw reader.error("", "expected a \"rules\" array") }
            guard let items = rules.arrayValue else { throw reader.error("/rules", "expected an array of rules, found \(rules.typeName)") }
            list = items
            base = "/rules"
        default:
            throw reader.error("", "expected an object with a \"rules\" array (or an array of rules), found \(json.typeName)")
        }
        var rules: [FaultRule] = []
        for (i, item) in list.enumerated() {
            rules.append(try reader.rule(item, at: "\(base)/\(i)"))
        }
        return rules
    }

    /// Parses one rule object; `pointer` locates it in its file for error messages.
    public static func parseRule(_ json: JSONValue, file: String, pointer: String = "") throws(FaultRuleError) -> FaultRule {
        try RuleReader(file: file).rule(json, at: pointer)
    }
}

/// Reads rule objects, producing errors that name the file and JSON pointer.
private struct RuleReader {
    let file: String

    /// Whether `name` is an HTTP header name: one or more token characters (RFC 9110).
    static func isHeaderName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }

    func error(_ pointer: String, _ message: String) -> FaultRuleError {
        FaultRuleError(file: file, pointer: pointer, message: message)
    }

    func rejectUnknown(_ o: JSONObject, allowed: [String], at pointer: String) throws(FaultRuleError) {
        for key in o.keys where !allowed.contains(key) {
            throw error("\(pointer)/\(escape(key))", "unknown key \"\(key)\"; expected one of \(allowed.map { "\"\($0)\"" }.joined(separator: ", "))")
        }
    }

    private func escape(_ key: String) -> String {
        key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    func rule(_ json: JSONValue, at p: String) throws(FaultRuleError) -> FaultRule {
        guard let o = json.objectValue else { throw error(p, "expected a rule object, found \(json.typeName)") }
        try rejectUnknown(o, allowed: ["name", "contract", "method", "path", "calls", "from", "every", "times", "probability", "seed", "fault"] + FaultSchedule.keys, at: p)
        let name = try string(o, "name", at: p)
        let contract = try string(o, "contract", at: p)
        let method = try string(o, "method", at: p)
        let path = try string(o, "path", at: p)
        if let path, !path.hasPrefix("/") { throw error("\(p)/path", "a path pattern starts with \"/\", e.g. \"/api/v1/items/{id}/files\"") }
        if let method, method.isEmpty || method.contains(where: { !$0.isLetter }) {
            throw error("\(p)/method", "\"\(method)\" is not an HTTP method")
        }
        let calls = try callList(o["calls"], at: "\(p)/calls")
        let from = try positive(o, "from", at: p)
        let every = try positive(o, "every", at: p)
        let times = try positive(o, "times", at: p)
        var probability: Double?
        if let v = o["probability"] {
            guard let d = v.numberValue, d >= 0, d <= 1 else { throw error("\(p)/probability", "expected a number from 0 to 1") }
            probability = d
        }
        var seed: UInt64?
        if let v = o["seed"] {
            guard let n = v.intValue, n >= 0, n <= FaultRanges.maxSeed else {
                throw error("\(p)/seed", "expected a whole number from 0 to \(FaultRanges.maxSeed) (found \(v.serialized()))")
            }
            seed = UInt64(n)
        }
        let schedule = try FaultScheduleReader(file: file).schedule(o, at: p)
        // A time-based rule may leave out its fault: it then gets the schedule's own (503, or 429 for a quota).
        let fault: Fault
        if let f = o["fault"] {
            fault = try self.fault(f, at: "\(p)/fault")
        } else if let schedule {
            fault = schedule.defaultFault
        } else {
            throw error(p, "missing \"fault\"; e.g. {\"kind\": \"status\", \"status\": 503}")
        }
        return FaultRule(name: name, selector: FaultSelector(contract: contract, method: method, path: path),
                         calls: calls, from: from, every: every, times: times, probability: probability, seed: seed, fault: fault, schedule: schedule)
    }

    private func string(_ o: JSONObject, _ key: String, at p: String) throws(FaultRuleError) -> String? {
        guard let v = o[key] else { return nil }
        guard let s = v.stringValue else { throw error("\(p)/\(key)", "expected a string, found \(v.typeName)") }
        return s
    }

    private func positive(_ o: JSONObject, _ key: String, at p: String) throws(FaultRuleError) -> Int? {
        guard let v = o[key] else { return nil }
        guard let n = v.intValue, n >= 1, n <= FaultRanges.maxCount else {
            throw error("\(p)/\(key)", "expected a whole number from 1 to \(FaultRanges.maxCount) (found \(v.serialized()))")
        }
        return n
    }

    /// A whole number from 0 to `max` (the unit, e.g. "milliseconds", goes into the message).
    private func nonNegative(_ o: JSONObject, _ key: String, at p: String, required: Bool, max: Int, unit: String = "") throws(FaultRuleError) -> Int? {
        guard let v = o[key] else {
            if required { throw error(p, "missing \"\(key)\"") }
            return nil
        }
        guard let n = v.intValue, n >= 0, n <= max else {
            throw error("\(p)/\(key)", "expected a whole number\(unit.isEmpty ? "" : " of \(unit)") from 0 to \(max) (found \(v.serialized()))")
        }
        return n
    }

    private func callList(_ value: JSONValue?, at p: String) throws(FaultRuleError) -> [ClosedRange<Int>]? {
        guard let value else { return nil }
        guard let items = value.arrayValue, !items.isEmpty else {
            throw error(p, "expected a non-empty array of call numbers or ranges, e.g. [1, 2, \"4-6\", \"9-\"]")
        }
        var ranges: [ClosedRange<Int>] = []
        for (i, item) in items.enumerated() {
            let ip = "\(p)/\(i)"
            if let n = item.intValue {
                guard n >= 1 else { throw error(ip, "call numbers start at 1") }
                guard n <= FaultRanges.maxCount else { throw error(ip, "call numbers go up to \(FaultRanges.maxCount)") }
                ranges.append(n...n)
            } else if let s = item.stringValue, let r = CallRange.parse(s) {
                guard r.upperBound == Int.max || r.upperBound <= FaultRanges.maxCount else {
                    throw error(ip, "call numbers go up to \(FaultRanges.maxCount); write \"\(r.lowerBound)-\" for every call from \(r.lowerBound) on")
                }
                guard r.lowerBound <= FaultRanges.maxCount else { throw error(ip, "call numbers go up to \(FaultRanges.maxCount)") }
                ranges.append(r)
            } else {
                throw error(ip, "expected a call number or a range such as \"2-4\" or \"3-\"")
            }
        }
        return ranges
    }

    func fault(_ json: JSONValue, at p: String) throws(FaultRuleError) -> Fault {
        guard let o = json.objectValue else { throw error(p, "expected a fault object such as {\"kind\": \"stall\"}") }
        guard let kindValue = o["kind"] else { throw error(p, "missing \"kind\"; one of \(Fault.kinds.joined(separator: ", "))") }
        guard let kind = kindValue.stringValue else { throw error("\(p)/kind", "expected a string") }
        switch kind {
        case "status":
            try rejectUnknown(o, allowed: ["kind", "status", "body", "headers"], at: p)
            guard let status = try nonNegative(o, "status", at: p, required: true, max: FaultRanges.maxCount) else {
                throw error("\(p)/status", "expected a final HTTP status from 200 to 599")
            }
            if let problem = Fault.finalStatusProblem(status) { throw error("\(p)/status", problem) }
            var headers: [String: String] = [:]
            if let h = o["headers"] {
                guard let ho = h.objectValue else { throw error("\(p)/headers", "expected an object of header names to strings") }
                for (key, value) in ho {
                    guard let s = value.stringValue else { throw error("\(p)/headers/\(escape(key))", "expected a string") }
                    // Checked here because the server writes answers without re-validating headers on every request.
                    guard Self.isHeaderName(key) else {
                        throw error("\(p)/headers/\(escape(key))", "\"\(key)\" is not a valid header name (letters, digits and !#$%&'*+-.^_`|~ only)")
                    }
                    guard !s.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) else {
                        throw error("\(p)/headers/\(escape(key))", "a header value cannot contain a line break or NUL")
                    }
                    headers[key] = s
                }
            }
            return .status(status, body: o["body"], headers: headers)
        case "delay":
            try rejectUnknown(o, allowed: ["kind", "ms"], at: p)
            return .delay(ms: try nonNegative(o, "ms", at: p, required: true, max: FaultRanges.maxMilliseconds, unit: "milliseconds") ?? 0)
        case "stall", "drop", "reset":
            try rejectUnknown(o, allowed: ["kind"], at: p)
            return kind == "stall" ? .stall : kind == "drop" ? .drop : .reset
        case "truncate":
            try rejectUnknown(o, allowed: ["kind", "bytes"], at: p)
            return .truncate(bytes: try nonNegative(o, "bytes", at: p, required: true, max: FaultRanges.maxBytes, unit: "bytes") ?? 0)
        case "malformed":
            try rejectUnknown(o, allowed: ["kind", "status", "body"], at: p)
            let status = try nonNegative(o, "status", at: p, required: false, max: FaultRanges.maxCount)
            if let status, !(200...299).contains(status) { throw error("\(p)/status", "a malformed answer is a 2xx; use \"status\" faults for errors") }
            var body: String?
            if let b = o["body"] {
                guard let s = b.stringValue else { throw error("\(p)/body", "expected a string") }
                body = s
            }
            return .malformed(status: status, body: body)
        case "slowBody":
            try rejectUnknown(o, allowed: ["kind", "chunkBytes", "intervalMs"], at: p)
            guard let chunk = try nonNegative(o, "chunkBytes", at: p, required: true, max: FaultRanges.maxBytes, unit: "bytes"), chunk >= 1 else {
                throw error("\(p)/chunkBytes", "expected a whole number of at least 1")
            }
            return .slowBody(chunkBytes: chunk, intervalMs: try nonNegative(o, "intervalMs", at: p, required: true, max: FaultRanges.maxMilliseconds, unit: "milliseconds") ?? 0)
        case "refuse":
            try rejectUnknown(o, allowed: ["kind", "ms"], at: p)
            return .refuse(ms: try nonNegative(o, "ms", at: p, required: false, max: FaultRanges.maxMilliseconds, unit: "milliseconds"))
        case "refuseAfterAnswer":
            try rejectUnknown(o, allowed: ["kind", "ms"], at: p)
            return .refuseAfterAnswer(ms: try nonNegative(o, "ms", at: p, required: false, max: FaultRanges.maxMilliseconds, unit: "milliseconds"))
        default:
            throw error("\(p)/kind", "unknown fault kind \"\(kind)\"; expected one of \(Fault.kinds.joined(separator: ", "))")
        }
    }
}

/// Call ranges written as strings: `"2-4"` (2, 3 and 4), `"3-"` (3 onwards), or `"5"`.
enum CallRange {
    static func parse(_ text: String) -> ClosedRange<Int>? {
        let t = text.trimmingCharacters(in: .whitespaces)
        if let n = Int(t), n >= 1 { return n...n }
        let parts = t.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let low = Int(parts[0].trimmingCharacters(in: .whitespaces)), low >= 1 else { return nil }
        let upperText = parts[1].trimmingCharacters(in: .whitespaces)
        if upperText.isEmpty { return low...Int.max }
        guard let high = Int(upperText), high >= low else { return nil }
        return low...high
    }
}

extension FaultRule {
    /// Reads and parses a rules file (`{"rules": [...]}` or `[...]`); errors name the file.
    public static func loadRules(from file: URL) throws(FaultRuleError) -> [FaultRule] {
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw FaultRuleError(file: file.path, pointer: "", message: "cannot read the file: \(FileErrorText.reason(error))")
        }
        let json: JSONValue
        do {
            json = try JSONValue(parsing: data)
        } catch {
            throw FaultRuleError(file: file.path, pointer: "", message: "not valid JSON at \(error.description)")
        }
        return try parseRules(json, file: file.path)
    }
}
