import Testing

@testable import ContractKit

/// `SchemaValidator.describe` counts only the first 41 characters of a string; it must show what counting all did.
@Suite struct SchemaValidatorDescribeTests {
    static func reference(_ s: String) -> String {
        let shown = s.count > 40 ? String(s.prefix(40)) + "…" : s
        return "the string \(JSONValue.string(shown).serialized())"
    }

    @Test(arguments: [0, 1, 39, 40, 41, 42, 64_000])
    func showsTheFirstFortyCharacters(_ length: Int) {
        for piece in ["a", "é", "e\u{301}", "\r\n", "🐶", "\u{1F1F5}\u{1F1F1}"] {
            let text = String(repeating: piece, count: length)
            #expect(SchemaValidator.describe(.string(text)) == Self.reference(text), "\(length) × \(piece.debugDescription)")
        }
    }
}
