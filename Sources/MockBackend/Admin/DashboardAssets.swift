import ContractModel
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
        guard let directory, let data = try? Data(contentsOf: directory.appendingPathComponent(name)) else { return nil }
        let bytes = Array(data)
        cache.withLock { $0[name] = bytes }
        return bytes
    }

    /// Where the files are: the package's resource bundle beside the binary, else (in a checkout) the sources.
    ///
    /// Looked up by hand rather than through `Bundle.module`, whose accessor stops the process when the bundle is missing
    /// (a binary copied without it); here that only makes the dashboard answer 404.
    static let directory: URL? = {
        let fm = FileManager.default
        let bases = [Bundle.main.bundleURL, Bundle.main.executableURL?.deletingLastPathComponent(), Bundle.main.resourceURL].compactMap { $0 }
        for base in bases {
            for bundle in ["SpotCheck_MockBackend.resources", "SpotCheck_MockBackend.bundle"] {
                for inner in ["dashboard", "Contents/Resources/dashboard"] {
                    let candidate = base.appendingPathComponent(bundle).appendingPathComponent(inner)
                    if fm.fileExists(atPath: candidate.appendingPathComponent("index.html").path) { return candidate }
                }
            }
        }
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Resources/dashboard")
        return fm.fileExists(atPath: source.appendingPathComponent("index.html").path) ? source : nil
    }()

    /// A 200 with the file, or the admin API's 404.
    static func response(for name: String) -> MockResponse {
        guard let type = files[name], let bytes = bytes(of: name) else { return AdminAPI.notFound(AdminAPI.prefix + "dashboard/" + name) }
        return MockResponse(status: .ok, headers: ["content-type": type, "cache-control": "no-cache"], body: ByteBuffer(bytes: bytes))
    }
}
