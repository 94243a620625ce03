import Testing
@testable import ContractModel
@testable import MockBackend

@Suite struct FaultShortcutTests {
    @Test func parsesTheCommonShortcuts() throws {
        let status = try FaultRule.parseShortcut("uploadPhoto:503")
        #expect(status.selector == FaultSelector(contract: "uploadPhoto"))
        #expect(status.fault == .status(503))
        #expect(status.calls == nil)
        #expect(status.name == "--fault uploadPhoto:503")
        #expect(try FaultRule.parseShortcut("createAnnouncement:stall").fault == .stall)
        let nth = try FaultRule.parseShortcut("uploadPhoto:503@2")
        #expect(nth.calls == [2...2])
        #expect(try FaultRule.parseShortcut("uploadPhoto:drop@1,3-4,6-").calls == [1...1, 3...4, 6...Int.max])
        let any = try FaultRule.parseShortcut("*:delay:1500")
        #expect(any.selector.isEmpty && any.fault == .delay(ms: 1500))
    }

    @Test func parsesEveryKind() throws {
        let cases: [(String, Fault)] = [
            ("a:status:429", .status(429)), ("a:delay:10", .delay(ms: 10)), ("a:stall", .stall), ("a:drop", .drop),
            ("a:reset", .reset), ("a:truncate:100", .truncate(bytes: 100)), ("a:malformed", .malformed()),
            ("a:malformed:202", .malformed(status: 202)), ("a:slowBody:64:200", .slowBody(chunkBytes: 64, intervalMs: 200)),
            ("a:refuse", .refuse(ms: nil)), ("a:refuse:5000", .refuse(ms: 5000)),
        ]
        for (text, fault) in cases {
            #expect(try FaultRule.parseShortcut(text).fault == fault, "\(text)")
        }
    }

    @Test func aMissingArgumentIsShownOnTheUsersOwnSelector() {
        do {
            _ = try FaultRule.parseShortcut("placeOrder:delay")
            Issue.record("a delay without milliseconds parsed")
        } catch {
            #expect(error.message.contains("e.g. placeOrder:delay:1500"), "\(error.message)")
        }
        do {
            _ = try FaultRule.parseShortcut("placeOrder")
            Issue.record("a shortcut without a kind parsed")
        } catch {
            #expect(error.message.contains("CONTRACT:KIND") && !error.message.contains("uploadPhoto"), "\(error.message)")
        }
    }

    @Test func rejectsBadShortcutsWithAMessage() {
        for text in ["uploadPhoto", "uploadPhoto:", ":503", "a:999", "a:explode", "a:delay", "a:delay:soon", "a:stall:5",
                     "a:503@0", "a:503@x", "a:malformed:500", "a:slowBody:0:10", "a:truncate:-1"] {
            do {
                _ = try FaultRule.parseShortcut(text)
                Issue.record("\(text) was accepted")
            } catch {
                #expect(error.file == "--fault \(text)")
                #expect(!error.message.isEmpty)
            }
        }
    }

    @Test func presets() {
        #expect(FaultPreset.offline.rules() == [FaultRule(name: "offline", fault: .refuse(ms: nil))])
        #expect(FaultPreset.slow.rules().map(\.fault) == [.delay(ms: 1500)])
        let flaky = FaultPreset.flaky.rules(seed: 5)
        #expect(flaky.map(\.fault.kind) == ["status", "drop"])
        #expect(flaky.allSatisfy { $0.probability != nil && $0.seed != nil })
        // Reproducible: the same seed gives the same faults for the same traffic.
        let decide = { (layer: FaultLayer) in (0..<100).map { _ in layer.decide(method: "GET", path: "/", contract: nil)?.fault.kind } }
        let first = decide(FaultLayer(rules: flaky))
        #expect(first == decide(FaultLayer(rules: FaultPreset.flaky.rules(seed: 5))))
        #expect(first.contains("status") && first.contains("drop") && first.contains(nil))
    }
}
