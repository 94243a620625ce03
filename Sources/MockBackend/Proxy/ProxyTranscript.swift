import ContractModel
import NIOCore

/// What the journal and the contract check keep of one streamed proxy exchange: its request, when it began, and the
/// first bytes of both bodies with their whole sizes.
///
/// A streamed body is never held whole, so this is all that is left of it once it went through; it is a value so that
/// `ProxyExchangeStateMachine` can hand a snapshot of it to a check while the exchange goes on.
struct ProxyTranscript {
    /// The request as the client sent it (its body stays empty: it streams).
    let request: MockRequest
    /// The contract operation the request matched, if any.
    let contract: String?
    /// When the request head arrived, for the journal's duration.
    let started: ContinuousClock.Instant
    /// The request body's first bytes, up to its validation limit (the check reads them all, the journal fewer).
    private(set) var requestBytes: [UInt8] = []
    /// How many bytes the request body had in all.
    private(set) var requestSize = 0
    /// The answer body's first bytes, up to the journal's limit.
    private(set) var responseBytes: [UInt8] = []
    /// How many bytes the answer body had in all.
    private(set) var responseSize = 0
    private let requestLimit: Int
    private let responseLimit: Int

    /// A transcript with no body yet; the answer keeps at most `journalBodyLimit` bytes, the request what its check needs.
    init(request: MockRequest, contract: String?, started: ContinuousClock.Instant, journalBodyLimit: Int) {
        self.request = request
        self.contract = contract
        self.started = started
        requestLimit = Exchange.validationLimit(contentType: request.headers.first(name: "content-type"))
        responseLimit = journalBodyLimit
    }

    /// A request body chunk went (or will go) to the target.
    mutating func addRequestBody(_ chunk: ByteBuffer) {
        requestSize += chunk.readableBytes
        Self.keep(chunk, in: &requestBytes, limit: requestLimit)
    }

    /// An answer body chunk went (or will go) to the client.
    mutating func addResponseBody(_ chunk: ByteBuffer) {
        responseSize += chunk.readableBytes
        Self.keep(chunk, in: &responseBytes, limit: responseLimit)
    }

    private static func keep(_ chunk: ByteBuffer, in kept: inout [UInt8], limit: Int) {
        let room = limit - kept.count
        guard room > 0, chunk.readableBytes > 0 else { return }
        kept += chunk.getBytes(at: chunk.readerIndex, length: min(room, chunk.readableBytes)) ?? []
    }
}
