import Foundation

/// The answer to a raw HTTP step.
struct HTTPAnswer: Sendable {
    /// The status code.
    var status: Int
    /// The headers as received.
    var headers: [(name: String, value: String)]
    /// The body bytes.
    var body: Data
}
