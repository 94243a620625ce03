import ContractModel
import Foundation
import NIOCore
import NIOHTTP1

/// What a connection answers once its request is complete: the admin API, the fault layer's decision around the
/// backend's answer, or a 413 for a body over its limit; every backend exchange is journaled.
extension HTTPConnectionHandler {
    // MARK: Oversized bodies

    func reject(_ request: MockRequest, started: ContinuousClock.Instant, context: ChannelHandlerContext) {
        let responder = server.responder
        let isAdmin = request.path.hasPrefix(AdminAPI.prefix)
        let contract = isAdmin ? nil : server.routedContractID(request)
        runAsync(context, { () async -> MockResponse in
            if isAdmin { return AdminAPI.tooLarge() }
            return await responder.respondToOversizedBody(request)
        }) { handler, context, response in
            guard case .writeRejection = handler.machine.rejectionAnswered() else { return }
            if !isAdmin {
                handler.record(request, contract: contract, started: started, status: Int(response.status.code), response: response, decision: nil)
            }
            // Say the connection ends, then keep discarding what the client still sends, so it can read the answer instead of a reset.
            handler.write(response, for: request, keepAlive: false, context: context) { handler, context in
                handler.run(handler.machine.rejectionWritten(), context: context)
            }
        }
    }

    // MARK: Answering

    func answerAdmin(_ request: MockRequest, keepAlive: Bool, context: ChannelHandlerContext) {
        let api = server.adminAPI
        if request.method == .GET, request.path == AdminAPI.prefix + "events", api.refusal(request) == nil {
            // The event stream owns the connection from here; like a stall, the handler only waits for it to close.
            machine.stall()
            AdminEventStream.start(on: context.channel, journal: server.journal, options: AdminEventStream.options(for: request))
            return
        }
        runAsync(context, { await api.handle(request) }) { handler, context, response in
            handler.finish(response, for: request, keepAlive: keepAlive, context: context)
        }
    }

    func answer(_ request: MockRequest, keepAlive: Bool, started: ContinuousClock.Instant, context: ChannelHandlerContext) {
        if adminOnly {
            finish(AdminAPI.notFound(request.path), for: request, keepAlive: keepAlive, context: context)
            return
        }
        if request.path.hasPrefix(AdminAPI.prefix) {
            // Only when the admin API is kept off this port (the proxy's): neither answered nor forwarded nor journaled.
            finish(AdminAPI.elsewhere(request.path, admin: server.address?.adminBaseURL), for: request, keepAlive: keepAlive, context: context)
            return
        }
        let method = request.method.rawValue
        let contract = server.routedContractID(request)
        // Before the fault layer: a refused act changes nothing, not even a rule's counter.
        if let refused = server.adminActRefusal(request, contract: contract) {
            finish(refused, for: request, keepAlive: keepAlive, context: context)
            return
        }
        let decision = server.faults.decide(method: method, path: request.path, contract: contract)

        guard let decision else {
            produce(request, context: context) { handler, context, response in
                handler.record(request, contract: contract, started: started, status: Int(response.status.code), response: response, decision: nil)
                handler.finish(response, for: request, keepAlive: keepAlive, context: context)
            }
            return
        }

        switch decision.fault {
        case .status(let status, let body, let headers):
            let response = FaultResponses.status(status, body: body, headers: headers)
            record(request, contract: contract, started: started, status: status, response: response, decision: decision)
            finish(response, for: request, keepAlive: keepAlive, context: context)

        case .delay(let ms):
            schedule(in: .milliseconds(Int64(ms)), context: context) { handler, context in
                handler.produce(request, context: context) { handler, context, response in
                    handler.record(request, contract: contract, started: started, status: Int(response.status.code), response: response, decision: decision)
                    handler.finish(response, for: request, keepAlive: keepAlive, context: context)
                }
            }

        case .stall:
            machine.stall()
            record(request, contract: contract, started: started, status: nil, decision: decision)

        case .drop:
            record(request, contract: contract, started: started, status: nil, decision: decision)
            run(machine.close(), context: context)

        case .reset:
            record(request, contract: contract, started: started, status: nil, decision: decision)
            run(machine.reset(), context: context)

        case .refuse(let ms):
            record(request, contract: contract, started: started, status: nil, decision: decision)
            machine.closedByServer()
            // The server closes the listener and every connection on the main port, this one included.
            server.refuse(for: ms)

        case .refuseAfterAnswer(let ms):
            produce(request, context: context) { handler, context, response in
                handler.record(request, contract: contract, started: started, status: Int(response.status.code), response: response, decision: decision)
                handler.answerThenRefuse(response, for: request, ms: ms, context: context)
            }

        case .truncate(let bytes):
            produce(request, context: context) { handler, context, response in
                handler.record(request, contract: contract, started: started, status: Int(response.status.code), response: response, decision: decision)
                handler.writeTruncated(response, bytes: bytes, context: context)
            }

        case .malformed(let status, let body):
            produce(request, context: context) { handler, context, response in
                let garbled = FaultResponses.malformed(response, status: status, body: body)
                handler.record(request, contract: contract, started: started, status: Int(garbled.status.code), response: garbled, decision: decision)
                handler.finish(garbled, for: request, keepAlive: keepAlive, context: context)
            }

        case .slowBody(let chunkBytes, let intervalMs):
            produce(request, context: context) { handler, context, response in
                handler.record(request, contract: contract, started: started, status: Int(response.status.code), response: response, decision: decision)
                handler.writeSlowly(response, for: request, keepAlive: keepAlive, chunkBytes: chunkBytes,
                                    interval: .milliseconds(Int64(intervalMs)), context: context)
            }
        }
    }

    /// Closes the listener (and every other connection) first, then answers and closes: once the client has the
    /// answer, the port is already closed, so its next connect is refused.
    private func answerThenRefuse(_ response: MockResponse, for request: MockRequest, ms: Int?, context: ChannelHandlerContext) {
        let closed = server.refuse(for: ms, sparing: ObjectIdentifier(context.channel))
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        closed.hop(to: context.eventLoop).assumeIsolated().whenComplete { _ in
            let (handler, context) = bound.value
            handler.finish(response, for: request, keepAlive: false, context: context)
        }
    }

    // MARK: Journal

    /// Journals the exchange; `response` is the answer as produced (nil when none was sent), `status` what the client got.
    private func record(_ request: MockRequest, contract: String? = nil, started: ContinuousClock.Instant, status: Int?,
                        response: MockResponse? = nil, decision: FaultDecision?) {
        violationHeaders = server.recordExchange(request, contract: contract, started: started, status: status,
                                                 response: response, decision: decision)
    }
}
