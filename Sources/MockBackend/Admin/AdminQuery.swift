import ContractModel
import Foundation

/// The parameters of an admin request's query string, percent-decoded; the first value of a repeated name wins.
struct AdminQuery {
    private var values: [String: String] = [:]

    init(_ query: String?) {
        guard let query else { return }
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (s: Substring) in String(s).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(s) }
            let name = decode(parts[0])
            if values[name] == nil { values[name] = parts.count > 1 ? decode(parts[1]) : "" }
        }
    }

    subscript(name: String) -> String? { values[name] }

    /// The parameter as a whole number, when it is one.
    func int(_ name: String) -> Int? { values[name].flatMap { Int($0) } }
}
