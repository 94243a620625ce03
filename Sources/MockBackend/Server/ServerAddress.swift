import ContractModel
import Foundation

/// Where a started `MockServer` listens.
public struct ServerAddress: Sendable, Equatable {
    /// The bound host as configured, e.g. `127.0.0.1`.
    public let host: String
    /// The bound port (the real one when 0 was asked for).
    public let port: Int
    /// The bound admin-only port, if one was configured.
    public let adminPort: Int?

    /// Creates an address.
    public init(host: String, port: Int, adminPort: Int?) {
        self.host = host
        self.port = port
        self.adminPort = adminPort
    }

    /// `http://host:port` for clients; a wildcard bind is reached through loopback.
    public var baseURL: URL {
        url(port: port)
    }

    /// `http://host:adminPort`, if there is an admin port.
    public var adminBaseURL: URL? {
        adminPort.map(url(port:))
    }

    private func url(port: Int) -> URL {
        var h = host
        if h == "0.0.0.0" { h = "127.0.0.1" } else if h == "::" || h == "[::]" { h = "::1" }
        if h.contains(":") && !h.hasPrefix("[") { h = "[\(h)]" }
        var components = URLComponents()
        components.scheme = "http"
        components.port = port
        // An unusable host name falls back to loopback rather than crashing.
        for candidate in [h, "127.0.0.1"] {
            components.percentEncodedHost = candidate
            if let url = components.url { return url }
        }
        return URL(fileURLWithPath: "/")
    }
}
