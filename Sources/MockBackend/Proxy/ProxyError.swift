import ContractModel
/// Why the forwarding proxy could not be set up or could not reach its target.
public enum ProxyError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The target URL is not a plain `http://host[:port][/base]` URL.
    case unsupportedTarget(String, reason: String)
    /// Connecting to or talking with the target failed.
    case upstreamFailed(target: String, reason: String)
    /// The target did not answer within the timeout.
    case upstreamTimedOut(target: String, seconds: Double)
    /// The target's answer was larger than the proxy keeps in memory.
    case upstreamResponseTooLarge(target: String, limit: Int)
    /// The target sent its answer's head, then nothing of the body for the timeout.
    case upstreamBodyStalled(target: String, seconds: Double)
    /// The client's request target holds a character no request line can carry (named as `ForwardableRequest` names it).
    case unforwardableTarget(character: String)

    /// Whether the target was too slow (504) rather than unreachable or broken (502).
    public var isTimeout: Bool {
        switch self {
        case .upstreamTimedOut, .upstreamBodyStalled: true
        default: false
        }
    }

    /// A sentence for a person.
    public var description: String {
        switch self {
        case .unsupportedTarget(let url, let reason):
            return "cannot proxy to \(url): \(reason)"
        case .upstreamFailed(let target, let reason):
            return "the target \(target) could not be reached: \(reason)"
        case .upstreamTimedOut(let target, let seconds):
            return "the target \(target) did not answer within \(seconds) s"
        case .upstreamResponseTooLarge(let target, let limit):
            return "the target \(target) sent an answer over \(limit) bytes"
        case .upstreamBodyStalled(let target, let seconds):
            return "the target \(target) sent the head of its answer, then nothing of the body for \(seconds) s"
        case .unforwardableTarget(let character):
            return "the request target holds \(character), which no HTTP/1.1 request line can carry, so the proxy cannot forward it as received; percent-encode it"
        }
    }
}
