import ContractKit
import ContractModel
import Logging

/// The model behind the NIO server: `ModelExecutor` answering each `MockRequest`, with what it reports (answers that
/// break their contract, changes the data directory could not keep) written to the log.
///
/// The executor is a value that knows no NIO; this face converts NIO's request and answer at the edge and brings
/// MultipartKit's parser and NIO's blocking pool for uploads.
public struct ModelBackend: MockResponder {
    /// How the model is set up.
    public typealias Configuration = ModelExecutor.Configuration

    /// The response header that carries a contract violation found in an answer; tests assert it is absent.
    public static let contractViolationHeader = ModelExecutor.contractViolationHeader

    /// On in debug builds (and so in tests), off in release builds.
    public static var checksResponsesByDefault: Bool { ModelExecutor.checksResponsesByDefault }

    /// The executor every answer comes from.
    public let executor: ModelExecutor
    /// Where contract violations and failed writes are reported.
    let logger: Logger

    /// The records of every declared collection, their secrets and files.
    public var store: RecordStore { executor.store }

    /// A backend with an empty store plus the configured fixtures.
    public init(configuration: Configuration, logger: Logger = Logger(label: "spotcheck.petspot")) throws(ModelRules.Missing) {
        executor = try ModelExecutor(configuration: configuration, multipart: MultipartKitScanner())
        self.logger = logger
    }

    public func respond(to request: MockRequest) async -> MockResponse {
        response(await executor.answer(request.modelRequest), to: request)
    }

    public func immediateResponse(to request: MockRequest) -> MockResponse? {
        executor.immediateAnswer(request.modelRequest).map { response($0, to: request) }
    }

    public func bodyLimit(for head: MockRequest) -> Int {
        // The limit depends on the route only: no copy of the headers (the body has not arrived yet).
        executor.bodyLimit(for: ModelRequest(method: head.method.rawValue, uri: head.uri, route: head.route))
    }

    public func respondToOversizedBody(_ head: MockRequest) async -> MockResponse {
        response(executor.answerOversizedBody(head.modelRequest), to: head)
    }

    /// The answer as the server sends it, after logging what the model reported about it.
    private func response(_ answer: ModelAnswer, to request: MockRequest) -> MockResponse {
        if !answer.contractViolations.isEmpty {
            logger.error(
                "response breaks its contract",
                metadata: ["method": "\(request.method.rawValue)", "path": "\(request.path)", "status": "\(answer.status.code)",
                           "problems": "\(answer.contractViolations.joined(separator: "; "))"])
        }
        if let failure = answer.storeFailure {
            logger.error("could not save a change to the data directory; it was undone", metadata: ["problem": "\(failure)"])
        }
        return MockResponse(answer)
    }
}
