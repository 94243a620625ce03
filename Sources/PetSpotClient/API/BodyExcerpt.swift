import Foundation

/// The start of a response body as text, short enough for a log line or an error message.
enum BodyExcerpt {
    static let limit = 300

    static func of(_ data: Data) -> String {
        let prefix = data.prefix(limit)
        let text = String(decoding: prefix, as: UTF8.self)
        return data.count > limit ? text + "…" : text
    }
}
