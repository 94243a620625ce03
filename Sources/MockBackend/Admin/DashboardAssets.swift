import Foundation
import NIOCore
import NIOHTTP1

/// The dashboard's static files, kept as resources of the package: plain HTML, CSS and JavaScript, no build step.
enum DashboardAssets {
    /// The files the dashboard is made of and their content types; nothing else is ever read from the bundle.
    static let files = ["index.html": "text/html; charset=utf-8", "app.js": "text/javascript; charset=utf-8",
                        "style.css": "text/css; charset=utf-8"]

    /// Whether the path names the dashboard page or one of its files.
    static func isAsset(path: String) -> Bool {
        let prefix = AdminAPI.prefix
        if path == prefix || path == prefix + "index.html" { return true }
        guard path.hasPrefix(prefix + "dashboard/") else { return false }
        return files[String(path.dropFirst(prefix.count + "dashboard/".count))] != nil
    }

    /// The file's bytes, read once per process.
    private static let cache = Locked([String: [UInt8]]())

    static func bytes(of name: String) -> [UInt8]? {
        guard files[name] != nil else { return nil }
        if let cached = cache.withLock({ $0[name] }) { return cached }
        let dot = name.lastIndex(of: ".")!
        guard let url = Bundle.module.url(forResource: String(name[..<dot]), withExtension: String(name[name.index(after: dot)...]),
                                          subdirectory: "dashboard"),
            let data = try? Data(contentsOf: url)
        else { return nil }
        let bytes = Array(data)
        cache.withLock { $0[name] = bytes }
        return bytes
    }

    /// A 200 with the file, or the admin API's 404.
    static func response(for name: String) -> MockResponse {
        guard let type = files[name], let bytes = bytes(of: name) else { return AdminAPI.notFound(AdminAPI.prefix + "dashboard/" + name) }
        return MockResponse(status: .ok, headers: ["content-type": type, "cache-control": "no-cache"], body: ByteBuffer(bytes: bytes))
    }
}
