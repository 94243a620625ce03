import ContractModel
import NIOHTTP1

extension HTTPMethod {
    /// The method as it was on the wire. NIO's parser names `M-SEARCH` `.MSEARCH`, whose raw value (and encoding) drops
    /// the dash, so the journal showed `MSEARCH` and the proxy forwarded a method the client never sent.
    var wireNamed: HTTPMethod {
        self == .MSEARCH ? .RAW(value: "M-SEARCH") : self
    }
}
