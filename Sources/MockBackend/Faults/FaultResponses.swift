import ContractKit
import ContractModel
import NIOCore
import NIOHTTP1

/// Builds the answers that `status` and `malformed` faults send.
enum FaultResponses {
    /// An injected error: a JSON body is sent as JSON, a string as plain text, none as an empty body.
    static func status(_ status: Int, body: JSONValue?, headers: [String: String]) -> MockResponse {
        var h = HTTPHeaders()
        var buffer = ByteBuffer()
        switch body {
        case .none, .some(.null):
            break
        case .some(.string(let text)):
            h.add(name: "content-type", value: "text/plain; charset=utf-8")
            buffer.writeString(text)
        case .some(let json):
            h.add(name: "content-type", value: "application/json")
            buffer.writeString(json.serialized())
        }
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            h.replaceOrAdd(name: name, value: value)
        }
        return MockResponse(status: HTTPResponseStatus(statusCode: status), headers: h, body: buffer)
    }

    /// The default body of a `malformed` answer: looks like a proxy's HTML page, which no JSON decoder accepts.
    static let malformedBody = "<html><body><h1>200 OK</h1><p>This body is not JSON.</p></body></html>"

    /// The backend's answer with its body replaced by non-JSON, still labelled as JSON so clients try to decode it.
    static func malformed(_ response: MockResponse, status: Int?, body: String?) -> MockResponse {
        var garbled = response
        let original = Int(response.status.code)
        // 204 cannot carry a body, so it becomes a 200 like any non-2xx answer.
        let code = status ?? ((200...299).contains(original) && original != 204 ? original : 200)
        garbled.status = HTTPResponseStatus(statusCode: code)
        garbled.headers.replaceOrAdd(name: "content-type", value: "application/json")
        var buffer = ByteBuffer()
        buffer.writeString(body ?? malformedBody)
        garbled.body = buffer
        return garbled
    }
}
