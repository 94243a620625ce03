import ArgumentParser
import MockBackend

/// Where a SpotCheck server listens and how its journal and admin API behave; shared by `serve` and `proxy`.
struct ListenOptions: ParsableArguments {
    @Option(help: "The address to bind.")
    var host: String = "127.0.0.1"

    @Option(help: "The port to bind; 0 picks a free one and prints it (serve: default 3000 like the real backend; proxy: default 0).")
    var port: Int?

    @Option(help: "A second port serving only the admin API and dashboard (0 picks one); it stays up while connections are refused (proxy: default 0, and the only place they answer).")
    var adminPort: Int?

    @Option(help: "Token for the admin API (X-SpotCheck-Admin-Token; serve: also DELETE's whole Authorization value, default on loopback: the contracts' service.json adminTokenOnLoopback); required off loopback.")
    var adminToken: String?

    @Option(name: .customLong("allow-host"), help: ArgumentHelp(
        "A host name the admin API and dashboard also answer to (repeatable; *.example.test allows its subdomains); loopback names, addresses and --host always are.",
        valueName: "name"))
    var allowHost: [String] = []

    @Flag(help: "Let web pages on other sites delete (the endpoints whose contract marks the credential x-admin) and get an open CORS preflight, as the real backend does; off, only the app, curl and this server's own page may.")
    var allowBrowserAdmin = false

    @Option(help: "How many requests the journal keeps.")
    var journalLimit: Int = 1000

    @Flag(help: "No per-request log line.")
    var quiet = false

    func validate() throws {
        if let port, !(0...65535).contains(port) { throw ValidationError("--port must be 0...65535, got \(port)") }
        if let adminPort, !(0...65535).contains(adminPort) { throw ValidationError("--admin-port must be 0...65535, got \(adminPort)") }
        for name in allowHost where !ServerConfiguration.isValidAllowedHost(name) {
            throw ValidationError("--allow-host \(name) is not a host name (give a name such as devbox.local or *.devbox.test, without a port)")
        }
        do {
            _ = try ServerConfiguration(host: host).resolveLoopback()
        } catch {
            throw ValidationError(error.description)
        }
        guard journalLimit > 0 else { throw ValidationError("--journal-limit must be positive, got \(journalLimit)") }
    }
}
