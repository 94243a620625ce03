import ContractKit
import Foundation
import Testing
@testable import ContractModel
@testable import MockBackend

/// Every number of a fault rule has a range: huge, negative-zero and non-numbers are refused naming the pointer, and
/// the largest accepted values apply on every request without a trap (issue 37).
@Suite struct FaultRuleRangeTests {
    /// The hostile values: JSON numbers where JSON can hold them, else strings.
    static let hostile = ["1e19", "9223372036854775808", "1e308", "-0", "\"NaN\"", "\"Infinity\"", "\"1e19\""]

    /// Each numeric field of the rule schema: a rule template with `V` where the value goes, its pointer, and whether
    /// 0 (so -0) is a valid value.
    static let fields: [(template: String, pointer: String, zeroAllowed: Bool)] = [
        (#"{"from": V, "fault": {"kind": "drop"}}"#, "/0/from", false),
        (#"{"every": V, "fault": {"kind": "drop"}}"#, "/0/every", false),
        (#"{"times": V, "fault": {"kind": "drop"}}"#, "/0/times", false),
        (#"{"calls": [V], "fault": {"kind": "drop"}}"#, "/0/calls/0", false),
        (#"{"probability": V, "fault": {"kind": "drop"}}"#, "/0/probability", true),
        (#"{"seed": V, "fault": {"kind": "drop"}}"#, "/0/seed", true),
        (#"{"outage": {"seconds": V}}"#, "/0/outage/seconds", false),
        (#"{"outage": {"after": V, "seconds": 1}}"#, "/0/outage/after", true),
        (#"{"quota": {"limit": V, "windowSeconds": 1}}"#, "/0/quota/limit", false),
        (#"{"quota": {"limit": 1, "windowSeconds": V}}"#, "/0/quota/windowSeconds", false),
        (#"{"ramp": {"from": V, "to": 1, "seconds": 1}}"#, "/0/ramp/from", true),
        (#"{"ramp": {"from": 0, "to": V, "seconds": 1}}"#, "/0/ramp/to", true),
        (#"{"ramp": {"from": 0, "to": 1, "seconds": V}}"#, "/0/ramp/seconds", false),
        (#"{"fault": {"kind": "status", "status": V}}"#, "/0/fault/status", false),
        (#"{"fault": {"kind": "delay", "ms": V}}"#, "/0/fault/ms", true),
        (#"{"fault": {"kind": "truncate", "bytes": V}}"#, "/0/fault/bytes", true),
        (#"{"fault": {"kind": "malformed", "status": V}}"#, "/0/fault/status", false),
        (#"{"fault": {"kind": "slowBody", "chunkBytes": V, "intervalMs": 1}}"#, "/0/fault/chunkBytes", false),
        (#"{"fault": {"kind": "slowBody", "chunkBytes": 1, "intervalMs": V}}"#, "/0/fault/intervalMs", true),
        (#"{"fault": {"kind": "refuse", "ms": V}}"#, "/0/fault/ms", true),
        (#"{"fault": {"kind": "refuseAfterAnswer", "ms": V}}"#, "/0/fault/ms", true),
    ]

    @Test(arguments: Self.hostile)
    func eachNumericFieldRefusesTheValueNamingItsPointerOrTakesItSafely(_ value: String) throws {
        for field in Self.fields {
            let text = "[" + field.template.replacingOccurrences(of: "V", with: value) + "]"
            do {
                let rules = try FaultRule.parseRules(try JSONValue(parsing: text), file: "faults.json")
                #expect(value == "-0" && field.zeroAllowed, "\(text) was accepted")
                // Accepted -0 reads back as 0, and applying the rule traps nowhere.
                try Self.apply(rules)
            } catch let error as FaultRuleError {
                #expect(!(value == "-0" && field.zeroAllowed), "\(text): \(error)")
                #expect(error.pointer == field.pointer, "\(text): \(error)")
                #expect(error.file == "faults.json")
            }
        }
    }

    @Test func theLargestAcceptedValuesApplyWithoutATrap() throws {
        let max = Int(FaultRanges.maxSeconds)
        let rules = try FaultRule.parseRules(try JSONValue(parsing: """
        [{"name": "o", "outage": {"after": \(max), "seconds": \(max)}},
         {"name": "q", "quota": {"limit": \(FaultRanges.maxCount), "windowSeconds": \(max)}},
         {"name": "r", "ramp": {"from": 0, "to": 1, "seconds": \(max)}, "seed": \(FaultRanges.maxSeed)},
         {"from": \(FaultRanges.maxCount), "every": \(FaultRanges.maxCount), "times": \(FaultRanges.maxCount), "calls": [\(FaultRanges.maxCount), "1-"],
          "fault": {"kind": "slowBody", "chunkBytes": \(FaultRanges.maxBytes), "intervalMs": \(FaultRanges.maxMilliseconds)}},
         {"fault": {"kind": "refuse", "ms": \(FaultRanges.maxMilliseconds)}}]
        """), file: "faults.json")
        try Self.apply(rules)
        let over = try #require(try? JSONValue(parsing: #"[{"outage": {"seconds": \#(max + 1)}}]"#))
        #expect(throws: FaultRuleError.self) { try FaultRule.parseRules(over, file: "faults.json") }
    }

    @Test func aRuleBuiltInCodeWithAHugeWindowDescribesAndAppliesWithoutATrap() {
        let clock = VirtualFaultClock()
        let layer = FaultLayer(rules: [FaultRule(fault: .status(503), schedule: .outage(OutageWindow(seconds: 1e19))),
                                       FaultRule(fault: .status(429), schedule: .quota(RequestQuota(limit: 1, windowSeconds: 1e308)))],
                               seed: 1, clock: clock)
        for _ in 0..<3 { _ = layer.decide(method: "GET", path: "/a", contract: nil) }
        #expect(layer.scheduleStatus.count == 2)
    }

    /// Runs the rules on a layer over a few requests and a year of virtual time, and describes them as the dashboard does.
    private static func apply(_ rules: [FaultRule]) throws {
        let clock = VirtualFaultClock()
        let layer = FaultLayer(rules: rules, seed: 1, clock: clock)
        for _ in 0..<3 {
            _ = layer.decide(method: "GET", path: "/a", contract: nil)
            clock.advance(by: FaultRanges.maxSeconds / 2)
        }
        _ = layer.scheduleStatus
        _ = try FaultRule.parseRules(FaultRule.json(rules), file: "round trip")
    }
}

/// The finding itself: an admin write of a huge outage once killed the server on the next request.
@Suite struct FaultRuleRangeAdminTests {
    @Test func aHugeOutageThroughTheAdminAPIIsA400NamingThePointerAndTheServerKeepsAnswering() async throws {
        try await withServer { _, address in
            let connection = try await RawConnection.connect(port: address.port)
            defer { connection.close() }
            for (body, pointer) in [(#"{"rules":[{"outage":{"seconds":1e19}}]}"#, "/rules/0/outage/seconds"),
                                    (#"{"rules":[{"outage":{"after":9.3e18,"seconds":1}}]}"#, "/rules/0/outage/after"),
                                    (#"{"rules":[{"quota":{"limit":1,"windowSeconds":1e308}}]}"#, "/rules/0/quota/windowSeconds")] {
                try await connection.send(rawRequest("PUT", "/__spotcheck/faults", body: body, headers: jsonType))
                let answer = await connection.readResponse()
                #expect(answer.status == 400, "\(body)")
                #expect(try JSONValue(parsing: Data(answer.body ?? []))["error"]?["pointer"] == .string(pointer))
            }
            try await connection.send(rawRequest("GET", "/a"))
            #expect(await connection.readResponse().status == 200)
            try await connection.send(rawRequest("GET", "/__spotcheck/faults/active"))
            #expect(await connection.readResponse().status == 200)
        }
    }
}

/// `--fault CONTRACT:KIND:N` shortcuts have the rule file's ranges.
@Suite struct FaultShortcutRangeTests {
    @Test func aHugeNumberInAShortcutIsRefusedNotApplied() throws {
        for text in ["*:delay:99999999999999", "*:refuse:31536000001", "uploadPhoto:truncate:2000000000", "*:slowBody:1:99999999999999"] {
            #expect(throws: FaultRuleError.self, "\(text)") { try FaultRule.parseShortcut(text) }
        }
        #expect(try FaultRule.parseShortcut("*:delay:\(FaultRanges.maxMilliseconds)").fault == .delay(ms: FaultRanges.maxMilliseconds))
    }
}
