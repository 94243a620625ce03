import ContractModel
import NIOHTTP1

/// The headers every admin answer and the dashboard carry, so no other page can frame, sniff or learn from them.
///
/// A page on another site once framed the dashboard invisibly under a decoy button: one click reset the store. The
/// policy also keeps the dashboard to its own files: no inline script or style, no other origin, images from itself
/// or `data:` (the body previews).
enum AdminSecurityHeaders {
    /// The Content-Security-Policy of every admin answer.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
        + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    /// The headers, in the order they are sent.
    static let fields: [(String, String)] = [
        ("X-Frame-Options", "DENY"),
        ("Content-Security-Policy", contentSecurityPolicy),
        ("X-Content-Type-Options", "nosniff"),
        ("Referrer-Policy", "no-referrer"),
    ]

    /// Sets the headers on an answer, replacing any earlier copy, so applying them twice changes nothing.
    static func apply(to headers: inout HTTPHeaders) {
        for (name, value) in fields { headers.replaceOrAdd(name: name, value: value) }
    }
}
