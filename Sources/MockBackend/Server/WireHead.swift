import NIOHTTP1

/// The framing headers `serve` puts on an answer: its own `content-length` and `connection`, never a responder's.
///
/// One definition for the NIO handler and the in-process face (`InProcessServer`), so verify's oracle answers with
/// the very header set a client of `serve` reads.
enum WireHead {
    /// `headers` without a responder's framing, with the server's: `content-length` (left out of a body-less HEAD, 204
    /// or 304 answer) and `connection`.
    static func framed(_ headers: HTTPHeaders, method: HTTPMethod, status: HTTPResponseStatus, keepAlive: Bool, contentLength: Int) -> HTTPHeaders {
        var headers = headers
        headers.remove(name: "content-length")
        headers.remove(name: "transfer-encoding")
        headers.remove(name: "connection")
        if !(method == .HEAD || status == .noContent || status == .notModified) || contentLength > 0 {
            headers.add(name: "content-length", value: String(contentLength))
        }
        headers.add(name: "connection", value: keepAlive ? "keep-alive" : "close")
        return headers
    }
}
