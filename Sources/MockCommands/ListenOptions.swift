import ArgumentParser

/// Where a SpotCheck server listens and how its journal and admin API behave; shared by `serve` and `proxy`.
struct ListenOptions: ParsableArguments {
    @Option(help: "The address to bind.")
    var host: String = "127.0.0.1"

    @Option(help: "The port to bind; 0 picks a free one and prints it (serve: default 3000 like the real backend; proxy: default 0).")
    var port: Int?

    @Option(help: "A second port serving only the admin API (0 picks one); it stays up while connections are refused.")
    var adminPort: Int?

    @Option(help: "Token for the admin API (X-SpotCheck-Admin-Token; serve: also DELETE's whole Authorization value, default tajnehasloadmina on loopback); required off loopback.")
    var adminToken: String?

    @Option(help: "How many requests the journal keeps.")
    var journalLimit: Int = 1000

    @Flag(help: "No per-request log line.")
    var quiet = false

    func validate() throws {
        if let port, !(0...65535).contains(port) { throw ValidationError("--port must be 0...65535, got \(port)") }
        if let adminPort, !(0...65535).contains(adminPort) { throw ValidationError("--admin-port must be 0...65535, got \(adminPort)") }
        guard journalLimit > 0 else { throw ValidationError("--journal-limit must be positive, got \(journalLimit)") }
    }
}
