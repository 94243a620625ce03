import ContractKit
import ContractModel
import Foundation
import NIOCore

/// The exchange observer `proxy` and `serve` install: validates each exchange with the one `ExchangeValidator`, prints
/// one console line per finding, and feeds the violation log, contract coverage and the optional recorder from the journal.
public final class ExchangeMonitor: ExchangeObserver {
    /// The validator; nil when validation is off (coverage and recording still run).
    public let validator: ExchangeValidator?
    /// Whether answers and invariants are checked too, or only the client's requests.
    public let checksAnswers: Bool
    /// The run's violations and totals.
    public let log: ViolationLog
    /// The run's coverage of the documented answers.
    public let coverage: ContractCoverage
    /// Writes distinct exchanges as contract examples, when recording.
    public let recorder: ExchangeRecorder?
    /// Appends every exchange to a HAR file, when recording one (`--record-har`).
    public let harRecorder: HARFileRecorder?
    private let console: @Sendable (String) -> Void

    /// A monitor; `checksAnswers` false checks requests only; `console` receives one line per violation (and per known defect).
    public init(validator: ExchangeValidator?, checksAnswers: Bool = true, coverage: ContractCoverage, recorder: ExchangeRecorder? = nil,
                harRecorder: HARFileRecorder? = nil, log: ViolationLog = ViolationLog(), console: @escaping @Sendable (String) -> Void = { _ in }) {
        self.validator = validator
        self.checksAnswers = checksAnswers
        self.coverage = coverage
        self.recorder = recorder
        self.harRecorder = harRecorder
        self.log = log
        self.console = console
    }

    public func inspect(_ entry: JournalEntry, requestBody: ByteBuffer, parsedRequestBody: JSONValue?, responseBody: ByteBuffer?) -> [ExchangeViolation] {
        guard let validator else { return [] }
        var exchange = Exchange(entry)
        // Routed by this server over the same contract set the validator holds.
        exchange.routedContractID = entry.contract
        exchange.requestBody = Self.prefix(requestBody, contentType: exchange.requestHeader("content-type"), captured: exchange.requestBody)
        exchange.parsedRequestBody = parsedRequestBody
        guard checksAnswers else { return validator.validate(exchange, answerIsGenuine: false) }
        if let responseBody {
            exchange.responseBody = Self.prefix(responseBody, contentType: exchange.responseHeader("content-type"), captured: exchange.responseBody)
        }
        // A fault the harness injected shaped the answer on purpose; only the request is the client's to answer for.
        let genuine = entry.fault == nil || entry.fault == "delay"
        return validator.validate(exchange, answerIsGenuine: genuine)
    }

    public func recorded(_ entry: JournalEntry) {
        if validator != nil { log.add(entry) }
        coverage.observe(entry)
        recorder?.record(entry)
        harRecorder?.record(entry)
        for violation in entry.violations {
            console("#\(entry.sequence) \(entry.method) \(entry.target) -> \(entry.status.map(String.init) ?? "no answer"): \(violation.line)")
        }
    }

    public func backendForgot(ids: [String]?) {
        validator?.forget(ids: ids)
    }

    /// What `GET /__spotcheck/violations` serves.
    public func violationsJSON() -> JSONValue {
        log.json()
    }

    /// The bytes validation reads: the whole JSON body up to its limit, else the first `Exchange.nonJSONValidationLimit`.
    ///
    /// `captured` is the journal's copy of the start of the same body: when it already holds exactly those bytes (any
    /// body under the journal's limit), it is shared instead of copying the body a second time.
    private static func prefix(_ buffer: ByteBuffer, contentType: String?, captured: [UInt8]) -> [UInt8] {
        let limit = Exchange.validationLimit(contentType: contentType)
        if Exchange.isJSON(contentType) && buffer.readableBytes > limit { return [] }
        let length = min(limit, buffer.readableBytes)
        if captured.count == length { return captured }
        return buffer.getBytes(at: buffer.readerIndex, length: length) ?? []
    }
}
