/// How the client under check is configured for one scenario.
public struct ClientSettings: Sendable, Equatable {
    /// The client's own request timeout; stall scenarios rely on it being short.
    public var requestTimeoutMs: Int
    /// How long the engine waits for the client to finish one step before failing it as hung.
    public var stepTimeoutMs: Int

    /// Settings with these timeouts.
    public init(requestTimeoutMs: Int = ClientSettings.defaultRequestTimeoutMs, stepTimeoutMs: Int? = nil) {
        self.requestTimeoutMs = requestTimeoutMs
        self.stepTimeoutMs = stepTimeoutMs ?? ClientSettings.defaultStepTimeout(forRequestTimeoutMs: requestTimeoutMs)
    }

    /// The request timeout when a scenario names none: short, so stalls end quickly.
    public static let defaultRequestTimeoutMs = 10_000

    /// Room for a whole two-step submission with both requests timing out, plus process and scheduling slack.
    public static func defaultStepTimeout(forRequestTimeoutMs ms: Int) -> Int { max(3000, 6 * ms) }
}
