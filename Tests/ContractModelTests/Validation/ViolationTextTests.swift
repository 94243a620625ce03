import ContractKit
import Testing

@testable import ContractModel

/// `ViolationText.describe` serializes only the start of a long string; the cut text must be the one the whole string
/// gives, whatever the characters: escapes, combining marks after controls, emoji sequences, flags.
@Suite struct ViolationTextTests {
    static let pieces = ["a", ".", "é", "\n", "\u{01}", "\"", "\\", "\u{301}", "\u{1F1F5}", "\u{1F1F1}", "👩\u{200D}💻", "\r\n",
                         "\u{1100}", "\u{1161}", "🐶", "\u{200D}", "\u{FE0F}", " "]

    @Test func longStringsAreDescribedAsTheWholeSerializationCut() {
        let seed: UInt64 = 120
        print("ViolationTextTests seed \(seed)")
        var random = ModelRandom(seed: seed)
        for round in 0..<300 {
            let length = ViolationText.longText - 5 + Int.random(in: 0...1_200, using: &random)
            let text = (0..<length).map { _ in Self.pieces.randomElement(using: &random)! }.joined()
            let value = JSONValue.string(text)
            #expect(ViolationText.describe(value) == ViolationText.cut(value.serialized()), "seed \(seed), round \(round)")
        }
        // Many controls, each followed by a mark that joins the escape's last character.
        let marks = JSONValue.string(String(repeating: "\u{01}\u{301}", count: 5_000))
        #expect(ViolationText.describe(marks) == ViolationText.cut(marks.serialized()))
    }
}
