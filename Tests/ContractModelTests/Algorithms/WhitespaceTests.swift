import Foundation
import Testing

@testable import ContractModel

/// The shortcut in front of Foundation's trimming must never change what Foundation would answer.
@Suite struct WhitespaceTests {
    static let samples = [
        "", " ", "\t", "\n", "\r\n", "Rex", " Rex", "Rex ", "\tRex\n", "\u{00A0}Rex\u{3000}", "\u{2028}", "\u{2029}x", "x\u{0085}",
        "\u{1680}a b\u{202F}", "a\u{200A}", "\u{0001}x", "x\u{007F}", "ünï", " ünï ", "🐶", "\u{205F}\u{3000}", "\u{000B}\u{000C}",
    ]

    @Test(arguments: samples)
    func trimmingMatchesFoundation(_ text: String) {
        #expect(text.trimming(.whitespacesAndNewlines) == text.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(text.trimming(.whitespaces) == text.trimmingCharacters(in: .whitespaces))
        #expect(text.isBlank == text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty)
    }
}
