import Foundation
import Testing

@testable import ContractKit

/// An escaped lone surrogate is the service's to accept or refuse (`service.json`'s `bodyParser.loneSurrogates`,
/// issue 42): refused by the plain default, read as U+FFFD where the real parser (JavaScript's `JSON.parse`) takes it.
@Suite struct LoneSurrogatePolicyTests {
    static let newer = ContractSet.bundledDirectory.appendingPathComponent("versions/2026-01-12")

    func parse(_ text: String, _ policy: LoneSurrogatePolicy) throws(JSONSyntaxError) -> JSONValue {
        try JSONValue(parsing: Array(text.utf8), loneSurrogates: policy)
    }

    @Test(arguments: [#""a\ud800b""#, #""\udc00""#, #""\ud800""#, #""x\ud800\u0041""#, #""\udc00\ud800""#])
    func theStrictDefaultRefusesEveryLoneSurrogate(text: String) {
        #expect(throws: JSONSyntaxError.self) { try JSONValue(parsing: text) }
        #expect(throws: JSONSyntaxError.self) { try self.parse(text, .refuse) }
    }

    @Test(arguments: [
        (#""a\ud800b""#, "a\u{FFFD}b"), (#""\udc00""#, "\u{FFFD}"), (#""\ud800""#, "\u{FFFD}"),
        (#""x\ud800\u0041""#, "x\u{FFFD}A"), (#""\udc00\ud800""#, "\u{FFFD}\u{FFFD}"),
        // A high surrogate before a whole pair: the lone one is replaced, the pair still reads as one scalar.
        (#""\ud800\ud83d\udc36""#, "\u{FFFD}\u{1F436}"),
    ])
    func replaceReadsEachLoneUnitAsOneReplacementCharacter(text: String, expected: String) throws {
        let value = try parse(text, .replace)
        #expect(value.stringValue.map { Array($0.unicodeScalars) } == Array(expected.unicodeScalars))
        // One UTF-16 unit either way, so a length rule counts the replacement as JavaScript counts the lone unit.
        #expect(value.stringValue?.utf16.count == expected.utf16.count)
    }

    @Test func pairsAndOtherEscapesReadTheSameUnderBothPolicies() throws {
        for text in [#""\ud83d\udc36 pair""#, #""\u0000nul""#, #""caf\u00e9""#] {
            #expect(try parse(text, .replace) == (try parse(text, .refuse)))
        }
        // A bad escape after a lone surrogate is still malformed.
        #expect(throws: JSONSyntaxError.self) { try self.parse(#""\ud800\uZZZZ""#, .replace) }
    }

    @Test func bothBundledFoldersStateTheRealParsersAcceptance() throws {
        #expect(try ContractSet.load(from: ContractSet.bundledDirectory).service.bodyParser.loneSurrogates == .replace)
        #expect(try ContractSet.load(from: Self.newer).service.bodyParser.loneSurrogates == .replace)
        #expect(ServiceFile.plain.bodyParser.loneSurrogates == .refuse)
    }

    @Test func anUnknownPolicyIsAProblemAtItsPointer() throws {
        let copy = try ContractsCopy()
        defer { copy.remove() }
        try copy.edit("service.json") { $0.set("/bodyParser/loneSurrogates", "sometimes") }
        let found = ContractSet.lint(directory: copy.url)
        let problem = try #require(found.first)
        #expect(found.count == 1)
        #expect(problem.file.hasSuffix("service.json"))
        #expect(problem.pointer == "/bodyParser/loneSurrogates")
        #expect(problem.message.contains("\"sometimes\"") && problem.message.contains("refuse, replace"))
    }

    @Test func refusingWhatWasAcceptedIsABreakingChange() throws {
        let copy = try ContractsCopy()
        defer { copy.remove() }
        try copy.edit("service.json") { $0.set("/bodyParser/loneSurrogates", "refuse") }
        let changes = ContractDiff.compare(old: try ContractSet.load(from: ContractSet.bundledDirectory), new: try copy.load())
        let change = try #require(changes.first { $0.pointer == "/bodyParser/loneSurrogates" })
        #expect(change.severity == .breaking)
        #expect(changes.count == 1)
        let reverse = ContractDiff.compare(old: try copy.load(), new: try ContractSet.load(from: ContractSet.bundledDirectory))
        #expect(reverse.first { $0.pointer == "/bodyParser/loneSurrogates" }?.severity == .compatible)
    }
}
