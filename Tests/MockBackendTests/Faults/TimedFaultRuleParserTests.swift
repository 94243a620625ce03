import ContractKit
import Foundation
import Testing
@testable import ContractModel
@testable import MockBackend

/// The rule-file form of outage, quota and ramp rules: defaults, round trips and errors that name file, pointer and expectation.
@Suite struct TimedFaultRuleParserTests {
    private func parse(_ text: String) throws -> [FaultRule] {
        try FaultRule.parseRules(try JSONValue(parsing: text), file: "faults.json")
    }

    private func problem(_ text: String) throws -> FaultRuleError {
        do {
            let rules = try parse(text)
            throw ExpectedFailure(rules: rules.count)
        } catch let error as FaultRuleError {
            return error
        }
    }

    private struct ExpectedFailure: Error { let rules: Int }

    @Test func parsesEachScheduleWithItsDefaultFault() throws {
        let rules = try parse("""
        {"rules": [
          {"name": "down 30 s", "outage": {"after": 0, "seconds": 30}},
          {"outage": {"at": "2026-11-25T15:00:00Z", "seconds": 1.5}, "fault": {"kind": "reset"}},
          {"contract": "uploadPhoto", "quota": {"limit": 10, "windowSeconds": 60, "scope": "perContract"}},
          {"ramp": {"from": 0, "to": 0.5, "seconds": 120}, "seed": 9, "fault": {"kind": "drop"}},
          {"ramp": {"from": 0.2, "to": 0.1, "seconds": 1}}
        ]}
        """)
        #expect(rules[0] == FaultRule(name: "down 30 s", fault: .status(503), schedule: .outage(OutageWindow(start: .afterFirstCall(seconds: 0), seconds: 30))))
        #expect(rules[1].schedule == .outage(OutageWindow(start: .at(Date(timeIntervalSince1970: 1_795_618_800)), seconds: 1.5)))
        #expect(rules[1].fault == .reset)
        #expect(rules[2].fault == .status(429))
        #expect(rules[2].schedule == .quota(RequestQuota(limit: 10, windowSeconds: 60, scope: .perContract)))
        #expect(rules[3].schedule == .ramp(FailureRamp(from: 0, to: 0.5, seconds: 120)) && rules[3].seed == 9 && rules[3].fault == .drop)
        #expect(rules[4].fault == .status(503), "a falling rate is allowed too")
    }

    @Test func theRuleFileFormRoundTrips() throws {
        let rules = try parse("""
        [{"name": "a", "outage": {"after": 5, "seconds": 30}},
         {"outage": {"at": "2026-11-25T15:00:00Z", "seconds": 10}, "fault": {"kind": "refuse"}},
         {"quota": {"limit": 3, "windowSeconds": 1}},
         {"quota": {"limit": 3, "windowSeconds": 1, "scope": "perContract"}, "fault": {"kind": "status", "status": 503}},
         {"contract": "uploadPhoto", "calls": ["2-"], "ramp": {"from": 0.1, "to": 1, "seconds": 60}, "seed": 3}]
        """)
        let again = try FaultRule.parseRules(FaultRule.json(rules), file: "GET /__spotcheck/faults")
        #expect(again == rules)
        #expect(FaultRule.json(rules)["rules"]?.arrayValue?[1]["outage"]?["at"] == "2026-11-25T15:00:00Z")
    }

    @Test(arguments: [
        (#"[{"outage": {"seconds": -1}}]"#, "/0/outage/seconds", "greater than 0"),
        (#"[{"outage": {"seconds": 0}}]"#, "/0/outage/seconds", "greater than 0"),
        (#"[{"outage": {"after": -2, "seconds": 3}}]"#, "/0/outage/after", "of at least 0"),
        (#"[{"outage": {"after": 1}}]"#, "/0/outage", "missing \"seconds\""),
        (#"[{"outage": {"at": "tomorrow", "seconds": 3}}]"#, "/0/outage/at", "ISO 8601"),
        (#"[{"outage": {"at": "2026-11-25T15:00:00Z", "after": 1, "seconds": 3}}]"#, "/0/outage/after", "not both"),
        (#"[{"outage": {"seconds": 3, "secs": 1}}]"#, "/0/outage/secs", "unknown key \"secs\""),
        (#"[{"outage": 30}]"#, "/0/outage", "expected an object"),
        (#"[{"quota": {"limit": 0, "windowSeconds": 60}}]"#, "/0/quota/limit", "from 1 to"),
        (#"[{"quota": {"limit": 2.5, "windowSeconds": 60}}]"#, "/0/quota/limit", "whole number"),
        (#"[{"quota": {"limit": 5, "windowSeconds": -60}}]"#, "/0/quota/windowSeconds", "greater than 0"),
        (#"[{"quota": {"limit": 5, "windowSeconds": 60, "scope": "perUser"}}]"#, "/0/quota/scope", "perContract"),
        (#"[{"quota": {"limit": 5, "windowSeconds": 60}, "probability": 0.5}]"#, "/0/probability", "cannot also have"),
        (#"[{"quota": {"limit": 5, "windowSeconds": 60}, "calls": [1]}]"#, "/0/calls", "cannot also have"),
        (#"[{"ramp": {"from": 0, "to": 1.5, "seconds": 60}}]"#, "/0/ramp/to", "from 0 to 1"),
        (#"[{"ramp": {"from": -0.1, "to": 1, "seconds": 60}}]"#, "/0/ramp/from", "from 0 to 1"),
        (#"[{"ramp": {"to": 1, "seconds": 60}}]"#, "/0/ramp", "missing \"from\""),
        (#"[{"ramp": {"from": 0, "to": 1, "seconds": 60}, "probability": 0.5}]"#, "/0/probability", "a ramp sets the chance"),
        (#"[{"outage": {"seconds": 3}, "ramp": {"from": 0, "to": 1, "seconds": 60}}]"#, "/0/ramp", "at most one"),
        (#"[{"outage": {"seconds": 3}, "fault": {"kind": "explode"}}]"#, "/0/fault/kind", "unknown fault kind"),
        (#"[{"outgae": {"seconds": 3}}]"#, "/0/outgae", "unknown key \"outgae\""),
    ])
    func badTimedRulesNameFilePointerAndExpectation(text: String, pointer: String, fragment: String) throws {
        let error = try problem(text)
        #expect(error.file == "faults.json")
        #expect(error.pointer == pointer, "\(error)")
        #expect(error.message.contains(fragment), "\(error.message)")
    }

    @Test func aRuleWithoutScheduleStillNeedsAFault() throws {
        let error = try problem(#"[{"contract": "uploadPhoto"}]"#)
        #expect(error.pointer == "/0" && error.message.contains("missing \"fault\""))
    }

    @Test func aRulesFileOnDiskNamesItsPath() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("timed-\(UUID().uuidString).json")
        try Data(#"{"rules": [{"quota": {"limit": 0, "windowSeconds": 60}}]}"#.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        do {
            _ = try FaultRule.loadRules(from: url)
            Issue.record("a quota of 0 loaded")
        } catch {
            #expect(error.description.hasPrefix(url.path + ":/rules/0/quota/limit: "), "\(error.description)")
        }
    }
}
