import Foundation

/// Express's default weak ETag (the `etag` package) and its freshness check (the `fresh` package), so a conditional
/// GET answers 304 exactly where the real backend does.
enum ExpressETag {
    /// `W/"<byte length in hex>-<base64 SHA-1, first 27 characters>"` of the body.
    static func weak(for body: [UInt8]) -> String {
        let hash = SHA1.digest(of: body)
        // Base64 of 20 bytes is 28 characters ending in one "="; the package keeps the 27 before it.
        let base64 = String(Data(hash).base64EncodedString().prefix(27))
        return #"W/""# + String(body.count, radix: 16) + "-" + base64 + #"""#
    }

    /// Whether a GET or HEAD whose 2xx answer carries `etag` is fresh for the client, so Express answers 304.
    ///
    /// As `fresh` does: no condition means stale, `Cache-Control: no-cache` means stale, `If-None-Match: *` is fresh,
    /// a listed tag matches weakly; `If-Modified-Since` alone is stale, since these answers carry no `Last-Modified`.
    static func isFresh(_ requestHeaders: HeaderFields, etag: String) -> Bool {
        let noneMatch = requestHeaders.first(name: "If-None-Match").flatMap { $0.isEmpty ? nil : $0 }
        let modifiedSince = requestHeaders.first(name: "If-Modified-Since").flatMap { $0.isEmpty ? nil : $0 }
        guard noneMatch != nil || modifiedSince != nil else { return false }
        if let cacheControl = requestHeaders.first(name: "Cache-Control"), hasNoCache(cacheControl) { return false }
        if let noneMatch, noneMatch != "*" {
            let tags = noneMatch.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
            guard tags.contains(where: { $0 == etag || "W/" + $0 == etag || $0 == "W/" + etag }) else { return false }
        }
        return modifiedSince == nil
    }

    /// `/(?:^|,)\s*?no-cache\s*?(?:,|$)/`: `no-cache` as a whole directive.
    private static func hasNoCache(_ value: String) -> Bool {
        value.split(separator: ",", omittingEmptySubsequences: false).contains {
            $0.trimmingCharacters(in: .whitespacesAndNewlines) == "no-cache"
        }
    }
}
