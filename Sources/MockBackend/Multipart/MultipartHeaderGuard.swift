import ContractModel
import Foundation

/// Keeps MultipartKit's parser away from the one input that traps it instead of throwing.
///
/// MultipartKit 4.7's `MultipartParser` looks every byte of a part-header name up in a 128-entry table,
/// so a byte of 0x80 or more there (e.g. `--b\r\nº…`, found by Schemathesis) is an index out of range that
/// kills the whole mock. Such a byte is a syntax error the parser means to throw at, so parsing only the
/// bytes before it gives the same parts a throw would have kept.
enum MultipartHeaderGuard {
    private enum State {
        case preamble(matched: Int)
        case preHeaders(expectingLF: Bool)
        case headerName(empty: Bool)
        case headerValue
        case postHeaderValue
        case postHeaders
        case body
        case delimiter(matched: Int)
    }

    /// How many leading bytes of `body` the parser may read: all of them, or up to the first non-ASCII byte
    /// it would read as part of a header name.
    ///
    /// Follows the parser's states closely enough to know where header names are; where the parser would
    /// stop on a syntax error first, the whole length is returned, as the parser never reads past that point.
    static func parsableLength(of body: UnsafeRawBufferPointer, boundary: String) -> Int {
        // The parser matches "\r\n--boundary"; before the first part the leading CRLF is optional.
        let delimiter = Array("\r\n--\(boundary)".utf8)
        let (cr, lf, colon): (UInt8, UInt8, UInt8) = (13, 10, 58)
        var state = State.preamble(matched: 0)
        var index = 0
        while index < body.count {
            let byte = body[index]
            defer { index += 1 }
            switch state {
            case .preamble(var matched):
                if matched == 0, byte == delimiter[2] {
                    matched = 3
                } else if byte == delimiter[matched] {
                    matched += 1
                } else {
                    matched = matched > 0 && byte == delimiter[0] ? 1 : 0
                }
                state = matched == delimiter.count ? .preHeaders(expectingLF: false) : .preamble(matched: matched)
            case .preHeaders(let expectingLF):
                guard byte == (expectingLF ? lf : cr) else { return body.count }
                state = expectingLF ? .headerName(empty: true) : .preHeaders(expectingLF: true)
            case .headerName(let empty):
                if byte >= 0x80 { return index }
                if byte == colon, !empty {
                    state = .headerValue
                } else if byte == cr, empty {
                    state = .postHeaders
                } else {
                    // Other bytes the parser refuses make it stop here anyway; reading on cannot cut earlier.
                    state = .headerName(empty: false)
                }
            case .headerValue:
                if byte == cr { state = .postHeaderValue }
            case .postHeaderValue:
                guard byte == lf else { return body.count }
                state = .headerName(empty: true)
            case .postHeaders:
                guard byte == lf else { return body.count }
                state = .body
            case .body:
                // Skip the part's content with memchr (a photo may be megabytes); the loop then steps past that CR.
                guard let base = body.baseAddress, let found = memchr(base + index, Int32(cr), body.count - index) else {
                    return body.count
                }
                index = base.distance(to: UnsafeRawPointer(found))
                state = .delimiter(matched: 1)
            case .delimiter(let matched):
                if matched == delimiter.count {
                    // After a full delimiter: CR starts the next part's headers, "-" the epilogue (never read).
                    guard byte == cr else { return body.count }
                    state = .preHeaders(expectingLF: true)
                } else if byte == delimiter[matched] {
                    state = .delimiter(matched: matched + 1)
                } else {
                    state = byte == delimiter[0] ? .delimiter(matched: 1) : .body
                }
            }
        }
        return body.count
    }
}
