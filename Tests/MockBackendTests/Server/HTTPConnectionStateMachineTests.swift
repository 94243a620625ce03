import NIOCore
import NIOHTTP1
import Testing

@testable import ContractModel
@testable import MockBackend

/// Drives the connection's state machine through every state without a socket: each event in, the action out.
@Suite struct HTTPConnectionStateMachineTests {
    private typealias Machine = HTTPConnectionStateMachine

    private static func head(_ method: HTTPMethod = .POST, uri: String = "/api/v1/announcements", limit: Int = 100,
                             declaredLength: Int? = nil, expectsContinue: Bool = false, keepAlive: Bool = true,
                             admin: Bool = false) -> Machine.Head {
        Machine.Head(request: MockRequest(method: method, uri: uri), limit: limit, declaredLength: declaredLength,
                     expectsContinue: expectsContinue, keepAlive: keepAlive, admin: admin, started: .now)
    }

    private static func bytes(_ text: String) -> ByteBuffer { ByteBuffer(string: text) }

    /// A machine that read `head` and is now receiving its body.
    private static func receiving(_ head: Machine.Head = head(), minimumBodyBytes: Int = 4) -> Machine {
        var machine = Machine(minimumBodyBytes: minimumBodyBytes)
        _ = machine.receivedHead(head)
        return machine
    }

    // MARK: Head

    @Test func aHeadMovesAnIdleConnectionToReceivingWithNothingToDo() {
        var machine = Machine(minimumBodyBytes: 4)
        guard case .none = machine.receivedHead(Self.head()) else { Issue.record("expected no action"); return }
        guard case .receiving(let head) = machine.state else { Issue.record("expected receiving, got \(machine.state)"); return }
        #expect(head.request.path == "/api/v1/announcements")
        #expect(!machine.watchesBody)
    }

    @Test func aHeadThatExpectsContinueIsToldToSendItsBody() {
        var machine = Machine(minimumBodyBytes: 4)
        guard case .sendContinue = machine.receivedHead(Self.head(expectsContinue: true)) else {
            Issue.record("expected sendContinue"); return
        }
    }

    @Test func aDeclaredLengthOverTheLimitIsRejectedBeforeAnyBody() {
        var machine = Machine(minimumBodyBytes: 4)
        let action = machine.receivedHead(Self.head(limit: 10, declaredLength: 11, expectsContinue: true))
        guard case .reject(let request, _) = action else { Issue.record("expected reject, got \(action)"); return }
        #expect(request.body.readableBytes == 0)
        guard case .rejecting(endReceived: false, answered: false) = machine.state else {
            Issue.record("expected rejecting, got \(machine.state)"); return
        }
    }

    @Test func aDeclaredLengthAtTheLimitIsRead() {
        var machine = Machine(minimumBodyBytes: 4)
        _ = machine.receivedHead(Self.head(limit: 10, declaredLength: 10))
        guard case .receiving = machine.state else { Issue.record("expected receiving, got \(machine.state)"); return }
    }

    @Test func aPipelinedHeadWhileAnsweringIsIgnored() {
        var machine = Self.receiving()
        _ = machine.receivedEnd()
        guard case .none = machine.receivedHead(Self.head(uri: "/second")) else { Issue.record("expected no action"); return }
        guard case .responding = machine.state else { Issue.record("expected responding, got \(machine.state)"); return }
    }

    // MARK: Body

    @Test func theFirstBodyChunkArmsTheBodyWatchOnceAndTheBodyAccumulates() {
        var machine = Self.receiving()
        var first = Self.bytes("abc")
        guard case .watchBody = machine.receivedBody(&first) else { Issue.record("expected watchBody"); return }
        var second = Self.bytes("def")
        guard case .none = machine.receivedBody(&second) else { Issue.record("expected no action"); return }
        #expect(machine.watchesBody)
        guard case .receiving(let head) = machine.state else { Issue.record("expected receiving"); return }
        #expect(head.request.body.readableBytes == 6)
        #expect(String(buffer: head.request.body) == "abcdef")
    }

    @Test func aBodyThatGrowsPastItsLimitIsRejectedAndItsWatchStops() {
        var machine = Self.receiving(Self.head(limit: 5))
        var first = Self.bytes("abc")
        _ = machine.receivedBody(&first)
        var second = Self.bytes("def")
        guard case .reject(let request, _) = machine.receivedBody(&second) else { Issue.record("expected reject"); return }
        #expect(request.body.readableBytes == 0)
        #expect(!machine.watchesBody)
        var third = Self.bytes("g")
        guard case .none = machine.receivedBody(&third) else { Issue.record("a rejected body is discarded"); return }
    }

    @Test func aBodyChunkWhenNotReceivingIsDropped() {
        var machine = Machine(minimumBodyBytes: 4)
        var chunk = Self.bytes("stray")
        guard case .none = machine.receivedBody(&chunk) else { Issue.record("expected no action"); return }
        guard case .idle = machine.state else { Issue.record("expected idle, got \(machine.state)"); return }
    }

    // MARK: Body progress

    @Test func aWindowThatBroughtEnoughArmsTheNextAndOneThatDidNotCutsTheConnection() {
        var machine = Self.receiving(minimumBodyBytes: 4)
        var chunk = Self.bytes("abcd")
        _ = machine.receivedBody(&chunk)
        guard case .watchBody = machine.bodyWindowEnded() else { Issue.record("4 bytes are enough: expected watchBody"); return }
        var trickle = Self.bytes("e")
        _ = machine.receivedBody(&trickle)
        guard case .cutSlowBody(let request, let minimum) = machine.bodyWindowEnded() else {
            Issue.record("1 byte is too little: expected cutSlowBody"); return
        }
        #expect(minimum == 4)
        #expect(request.body.readableBytes == 5)
        #expect(machine.isClosed)
        #expect(!machine.watchesBody)
    }

    @Test func aWindowEndingAfterTheRequestEndedDoesNothing() {
        var machine = Self.receiving()
        var chunk = Self.bytes("a")
        _ = machine.receivedBody(&chunk)
        _ = machine.receivedEnd()
        #expect(!machine.watchesBody)
        guard case .none = machine.bodyWindowEnded() else { Issue.record("a late timer must do nothing"); return }
        guard case .responding = machine.state else { Issue.record("expected responding, got \(machine.state)"); return }
    }

    @Test func eachRequestStartsWithAFreshWindow() {
        var machine = Self.receiving(minimumBodyBytes: 4)
        var chunk = Self.bytes("abc")
        _ = machine.receivedBody(&chunk)
        _ = machine.receivedEnd()
        _ = machine.answerReady(keepAlive: true)
        _ = machine.receivedHead(Self.head())
        var next = Self.bytes("d")
        guard case .watchBody = machine.receivedBody(&next) else { Issue.record("expected a new watch"); return }
        // Only the new request's byte counts: the previous request's 3 must not make up the 4.
        guard case .cutSlowBody = machine.bodyWindowEnded() else { Issue.record("expected cutSlowBody"); return }
    }

    // MARK: End, answer, keep-alive, pipelining

    @Test func theEndOfABackendRequestAsksForItsAnswerWithTheWholeBody() {
        var machine = Self.receiving(Self.head(keepAlive: false))
        var chunk = Self.bytes("{}")
        _ = machine.receivedBody(&chunk)
        guard case .answer(let request, let keepAlive, _) = machine.receivedEnd() else { Issue.record("expected answer"); return }
        #expect(String(buffer: request.body) == "{}")
        #expect(!keepAlive)
        guard case .responding = machine.state else { Issue.record("expected responding, got \(machine.state)"); return }
    }

    @Test func theEndOfAnAdminRequestGoesToTheAdminAPI() {
        var machine = Self.receiving(Self.head(.GET, uri: "/__spotcheck/faults", admin: true))
        guard case .answerAdmin(let request, true) = machine.receivedEnd() else { Issue.record("expected answerAdmin"); return }
        #expect(request.path == "/__spotcheck/faults")
    }

    @Test func aKeepAliveAnswerGoesIdleBeforeItIsWrittenSoThePipelinedRequestIsRead() {
        var machine = Self.receiving()
        _ = machine.receivedEnd()
        guard case .write(closeAfterward: false) = machine.answerReady(keepAlive: true) else { Issue.record("expected write"); return }
        guard case .idle = machine.state else { Issue.record("expected idle, got \(machine.state)"); return }
        guard case .none = machine.receivedHead(Self.head(.GET, uri: "/next")) else { Issue.record("expected no action"); return }
        guard case .receiving(let head) = machine.state else { Issue.record("expected receiving"); return }
        #expect(head.request.path == "/next")
    }

    @Test func anAnswerWithoutKeepAliveClosesAfterItIsWrittenAndReadsNoMore() {
        var machine = Self.receiving(Self.head(keepAlive: false))
        _ = machine.receivedEnd()
        guard case .write(closeAfterward: true) = machine.answerReady(keepAlive: false) else { Issue.record("expected write"); return }
        guard case .none = machine.receivedHead(Self.head()) else { Issue.record("no request after the last"); return }
        guard case .close = machine.close() else { Issue.record("expected close"); return }
        #expect(machine.isClosed)
    }

    @Test func anAnswerReadyAfterTheConnectionClosedIsNotWritten() {
        var machine = Self.receiving()
        _ = machine.receivedEnd()
        machine.channelInactive()
        guard case .none = machine.answerReady(keepAlive: true) else { Issue.record("expected no write"); return }
        #expect(!machine.mayWriteAnswer)
    }

    @Test func aPieceByPieceAnswerMayWriteUntilItsLastPart() {
        var machine = Self.receiving()
        _ = machine.receivedEnd()
        #expect(machine.mayWriteAnswer)
        guard case .write(closeAfterward: false) = machine.answerReady(keepAlive: true) else { Issue.record("expected write"); return }
        #expect(!machine.mayWriteAnswer)
    }

    // MARK: Stall, idle timeout

    @Test func aStalledConnectionKeepsQuietThroughTheIdleTimeout() {
        var machine = Self.receiving()
        _ = machine.receivedEnd()
        machine.stall()
        guard case .none = machine.idleTimeout() else { Issue.record("a stall outlives the idle timeout"); return }
        guard case .none = machine.answerReady(keepAlive: true) else { Issue.record("a stalled connection never answers"); return }
    }

    @Test func anIdleTimeoutClosesAnIdleOrReadingConnection() {
        var idle = Machine(minimumBodyBytes: 4)
        guard case .close = idle.idleTimeout() else { Issue.record("idle: expected close"); return }
        #expect(idle.isClosed)
        var reading = Self.receiving()
        guard case .close = reading.idleTimeout() else { Issue.record("receiving: expected close"); return }
        var rejecting = Machine(minimumBodyBytes: 4)
        _ = rejecting.receivedHead(Self.head(limit: 1, declaredLength: 2))
        guard case .close = rejecting.idleTimeout() else { Issue.record("rejecting: expected close"); return }
    }

    @Test func anIdleTimeoutWhileTheAnswerIsProducedIsIgnored() {
        var machine = Self.receiving()
        _ = machine.receivedEnd()
        guard case .none = machine.idleTimeout() else { Issue.record("expected no action"); return }
        guard case .responding = machine.state else { Issue.record("expected responding, got \(machine.state)"); return }
    }

    @Test func aStallAfterTheConnectionClosedLeavesItClosed() {
        var machine = Machine(minimumBodyBytes: 4)
        machine.channelInactive()
        machine.stall()
        #expect(machine.isClosed)
    }

    // MARK: Oversized bodies

    @Test func aRejectionAnsweredBeforeTheBodyEndedLingersThenCloses() {
        var machine = Machine(minimumBodyBytes: 4)
        _ = machine.receivedHead(Self.head(limit: 1, declaredLength: 2))
        guard case .writeRejection = machine.rejectionAnswered() else { Issue.record("expected writeRejection"); return }
        guard case .lingerThenClose = machine.rejectionWritten() else { Issue.record("expected lingerThenClose"); return }
        // The body's end arrives during the linger: close at once.
        guard case .close = machine.receivedEnd() else { Issue.record("expected close"); return }
        #expect(machine.isClosed)
    }

    @Test func aRejectionWhoseBodyAlreadyEndedClosesOnceWritten() {
        var machine = Machine(minimumBodyBytes: 4)
        _ = machine.receivedHead(Self.head(limit: 1, declaredLength: 2))
        guard case .none = machine.receivedEnd() else { Issue.record("the end alone does not close before the answer"); return }
        guard case .rejecting(endReceived: true, answered: false) = machine.state else { Issue.record("got \(machine.state)"); return }
        _ = machine.rejectionAnswered()
        guard case .close = machine.rejectionWritten() else { Issue.record("expected close"); return }
    }

    @Test func aRejectionAnsweredAfterTheConnectionClosedIsNotWritten() {
        var machine = Machine(minimumBodyBytes: 4)
        _ = machine.receivedHead(Self.head(limit: 1, declaredLength: 2))
        machine.channelInactive()
        guard case .none = machine.rejectionAnswered() else { Issue.record("expected no write"); return }
        guard case .none = machine.rejectionWritten() else { Issue.record("expected nothing"); return }
    }

    // MARK: Errors and close

    @Test func aResetAndAServerCloseEndTheConnection() {
        var reset = Self.receiving()
        _ = reset.receivedEnd()
        guard case .reset = reset.reset() else { Issue.record("expected reset"); return }
        #expect(reset.isClosed)
        var refused = Self.receiving()
        _ = refused.receivedEnd()
        refused.closedByServer()
        #expect(refused.isClosed)
        guard case .none = refused.answerReady(keepAlive: true) else { Issue.record("no answer after a refuse"); return }
    }

    @Test func aClosedConnectionIgnoresEveryRequestPart() {
        var machine = Self.receiving()
        var chunk = Self.bytes("ab")
        _ = machine.receivedBody(&chunk)
        guard case .close = machine.close() else { Issue.record("expected close"); return }
        #expect(!machine.watchesBody)
        var more = Self.bytes("c")
        guard case .none = machine.receivedBody(&more) else { Issue.record("body after close"); return }
        guard case .none = machine.receivedEnd() else { Issue.record("end after close"); return }
        guard case .none = machine.receivedHead(Self.head()) else { Issue.record("head after close"); return }
        guard case .none = machine.idleTimeout() else { Issue.record("idle after close"); return }
    }
}
