import ContractKit
import ContractModel
import Foundation

/// Values past what a schema's own bounds suggest, where real servers differ: numbers a JSON parser or a database column
/// changes, texts at the lengths storage engines cut at, every Unicode class a user can type, and JSON only raw text can
/// carry (integers past 2^53, more decimals than a double holds, lone surrogates). Generic: nothing here knows a field.
enum EdgeValues {
    /// Numbers a parser, a float column or a serializer may change: tiny and huge exponents, negative zero.
    static let numbers: [Double] = [1e-7, 1e21, -0.0, 0.1 + 0.2]

    /// Decimals added to a valid number, so it keeps its range and gains many digits.
    static let manyDecimals = 0.000_000_123_456_789

    /// Numbers only raw JSON text can carry exactly, with how a report names each.
    static let rawNumbers: [(text: String, label: String)] = [
        ("9007199254740993", "2^53 + 1 (not a double)"), ("-9007199254740993", "-(2^53 + 1)"), ("12345678901234567890", "an integer past 2^64"),
        ("0.12345678901234567890123", "more decimals than a double holds"), ("1E21", "1E21 (upper-case exponent)"), ("-0", "-0 as text"),
        ("1e-7", "1e-7 as text"), ("1.0", "1.0 (a decimal point with nothing after it)"),
    ]

    /// The lengths storage engines cut text at (VARCHAR(255), common application limits, TEXT's 65,535 bytes) and one past.
    static let storageLengths = [255, 256, 1000, 1024, 65_535, 65_536]
    /// Lengths every free-text property gets; the longer ones go once per body (`JSONBodyModel.rawTextCases`): sixty
    /// kilobytes through every property would cost more than the rest of the systematic cases together.
    static let everyFieldLengths = storageLengths.filter { $0 <= 1024 }

    /// Text in each Unicode class a user can type or paste, each labelled (canonically equal texts must stay apart).
    static let unicodeTexts: [(text: String, label: String)] = [
        ("Caf\u{E9} Zo\u{EB}", "NFC text (precomposed é, ë)"), ("Cafe\u{301} Zoe\u{308}", "NFD text (e + combining marks)"),
        ("Z\u{351}\u{336}a\u{489}l\u{30C}g\u{327}o\u{35F}", "stacked combining marks"),
        ("\u{1F469}\u{200D}\u{1F469}\u{200D}\u{1F467}\u{200D}\u{1F466} family", "an emoji ZWJ sequence"),
        ("\u{1F1F5}\u{1F1F1} \u{1F44D}\u{1F3FD}", "a flag and a skin-tone modifier"),
        ("\u{FF11}\u{FF12}\u{FF13}\u{FF14}", "full-width digits"), ("\u{202E}tac\u{202C} dog", "bidi override marks"),
        ("\u{200F}\u{5D0}\u{5D1}\u{5D2} 123", "a right-to-left mark and Hebrew"), ("a\u{200B}b\u{FEFF}c", "zero-width characters"),
        ("\u{0130}stanbul \u{1E9E}", "letters whose case mapping changes length"),
    ]

    /// Escapes only raw JSON text can carry (a Swift string cannot hold a lone surrogate), each labelled.
    static let rawEscapes: [(text: String, label: String)] = [
        ("a\\ud800b", "an escaped lone high surrogate"), ("\\udc00", "an escaped lone low surrogate"),
        ("\\ud83d\\udc36 pair", "an escaped surrogate pair"), ("\\u0000nul", "an escaped NUL"),
    ]

    /// Digits a pattern of ASCII digits must refuse though they read as digits.
    static let lookAlikeDigits = ["\u{FF11}\u{FF12}\u{FF13}\u{FF14}\u{FF15}\u{FF16}\u{FF17}\u{FF18}\u{FF19}\u{FF10}\u{FF11}\u{FF12}",
                                  "\u{0661}\u{0662}\u{0663}\u{0664}\u{0665}\u{0666}\u{0667}\u{0668}\u{0669}\u{0660}\u{0661}\u{0662}"]

    /// `body` as JSON text with `name`'s value written as `raw` (a number or a string's inside, escapes and all).
    static func splice(_ body: JSONObject, name: String, raw: String, quoted: Bool) -> String {
        var object = body
        let marker = "\u{1}spotcheck-raw\u{1}"
        object[name] = .string(marker)
        let text = String(decoding: JSONValue.object(object).data(), as: UTF8.self)
        let escapedMarker = String(decoding: JSONValue.string(marker).data(), as: UTF8.self)
        return text.replacingOccurrences(of: escapedMarker, with: quoted ? "\"\(raw)\"" : raw)
    }
}
