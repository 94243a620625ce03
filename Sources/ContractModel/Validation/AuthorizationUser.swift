import Foundation

/// Reads the user name out of a Basic `Authorization` header for the journal; nil when there is none or it does not decode.
package func basicAuthUser(_ header: String?) -> String? {
    guard let header else { return nil }
    let parts = header.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
    guard parts.count == 2, parts[0].lowercased() == "basic",
          let data = Data(base64Encoded: String(parts[1]).trimmingCharacters(in: .whitespaces)),
          let text = String(data: data, encoding: .utf8),
          let colon = text.firstIndex(of: ":") else { return nil }
    return String(text[..<colon])
}
