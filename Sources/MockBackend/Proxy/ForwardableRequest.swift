import ContractModel
import NIOHTTP1

/// What of a client's request the proxy can write to the target exactly as received.
///
/// The proxy forwards the request target byte for byte, as nginx does: `| { } " \ ^` and a backtick are not RFC 3986
/// characters, but servers (this one included) take them, so refusing them would blame the server for the client's URL.
/// Only what cannot be written in a request line at all is refused: control characters, space and DEL end or split the
/// line, and a byte that was not UTF-8 reached the proxy already replaced by U+FFFD, so it could not go on as received.
enum ForwardableRequest {
    /// The first character of `target` that cannot be forwarded as received, nil when the whole target can.
    static func unsendableCharacter(inTarget target: String) -> Unicode.Scalar? {
        target.unicodeScalars.first { $0.value <= 0x20 || $0.value == 0x7F || $0 == "\u{FFFD}" }
    }

    /// Whether every header can be written as it is: names are tokens, values hold no control character but tab.
    static func headersAreSendable(_ headers: HTTPHeaders) -> Bool {
        headers.allSatisfy { name, value in
            !name.isEmpty && name.utf8.allSatisfy(isTokenByte) && value.utf8.allSatisfy { $0 == 0x09 || ($0 > 0x1F && $0 != 0x7F) }
        }
    }

    /// A person's name for a character that cannot be forwarded: `a space`, `the control character U+0001`.
    static func describe(_ character: Unicode.Scalar) -> String {
        let hex = String(character.value, radix: 16, uppercase: true)
        let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        switch character {
        case " ": return "a space (U+0020)"
        case "\u{FFFD}": return "a byte that is not UTF-8 (or U+FFFD)"
        case "\u{7F}": return "the control character DEL (U+007F)"
        default: return "the control character \(code)"
        }
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return "!#$%&'*+-.^_`|~".utf8.contains(byte)
        }
    }
}
