import MockBackend

extension ProxyCommand {
    /// Stops the proxy, writes the run's reports and prints its summary; the exit code (1 on a violation with --fail-on-violation).
    func stop(_ proxy: RunningFaultProxy) async throws -> Int32 {
        try await proxy.shutdown()
        return traffic.finish(proxy.server, name: "spotcheck proxy -> \(target)")
    }
}
