import NIOCore
import NIOHTTP1
import Testing

@testable import ContractModel
@testable import MockBackend

/// Drives the streaming proxy's exchange state machine through its paths without a socket: each event in, the action
/// out. The real-socket behaviour is in `StreamingProxyTests`, `StalledUpstreamTests` and `ProxyTests`.
@Suite struct ProxyExchangeStateMachineTests {
    private typealias Machine = ProxyExchangeStateMachine

    private static let target = "http://target.test:3000"
    private static let timeout = TimeAmount.seconds(10)

    private static func machine(journalBodyLimit: Int = 1024) -> Machine {
        Machine(timeout: timeout, target: target, journalBodyLimit: journalBodyLimit)
    }

    private static func head(_ method: HTTPMethod = .GET, uri: String = "/api/v1/announcements", keepAlive: Bool = true,
                             headers: HTTPHeaders = [:]) -> Machine.Head {
        Machine.Head(request: MockRequest(method: method, uri: uri, headers: headers), contract: "listAnnouncements",
                     keepAlive: keepAlive,
                     upstreamHead: HTTPRequestHead(version: .http1_1, method: method, uri: "/base" + uri, headers: ["Host": "target.test:3000"]),
                     started: .now)
    }

    private static func answer(_ headers: [(String, String)], status: HTTPResponseStatus = .ok) -> HTTPResponseHead {
        HTTPResponseHead(version: .http1_1, status: status, headers: HTTPHeaders(headers))
    }

    private static let violation = ExchangeViolation(contract: "listAnnouncements", pointer: "/items/0/id", expected: "a UUID",
                                                     got: "\"x\"", side: .server)

    /// A machine whose exchange started with `head` and, when `ended`, whose request ended; attached when `attached`.
    private static func started(_ head: Machine.Head = Self.head(), ended: Bool = true, attached: Bool = true) -> (Machine, Machine.ExchangeID) {
        var machine = machine()
        guard case .connect(let id) = machine.receivedHead(head) else {
            Issue.record("expected connect")
            return (machine, Machine.ExchangeID(value: 0))
        }
        if ended { _ = machine.receivedEnd() }
        if attached { _ = machine.upstreamConnected(id) }
        return (machine, id)
    }

    /// The `Finish` of `action`, recording an issue when it is something else.
    private static func finish(_ action: Machine.Action, sourceLocation: SourceLocation = #_sourceLocation) -> Machine.Finish? {
        guard case .finish(let finish) = action else {
            Issue.record("expected finish, got \(action)", sourceLocation: sourceLocation)
            return nil
        }
        return finish
    }

    /// The check of `action`, recording an issue when it is something else.
    private static func check(_ action: Machine.Action, sourceLocation: SourceLocation = #_sourceLocation) -> Machine.Check? {
        guard case .check(let check) = action else {
            Issue.record("expected check, got \(action)", sourceLocation: sourceLocation)
            return nil
        }
        return check
    }

    private static func text(_ part: HTTPClientRequestPart) -> String? {
        guard case .body(.byteBuffer(let buffer)) = part else { return nil }
        return String(buffer: buffer)
    }

    // MARK: A held (checked) answer

    @Test func aSmallJSONAnswerIsHeldCheckedWholeAndWrittenWithItsViolationsInItsHead() throws {
        var (machine, id) = Self.started()
        let body = #"{"items":[]}"#
        let head = Self.answer([("Content-Type", "application/json"), ("Content-Length", "\(body.utf8.count)"),
                                ("Connection", "keep-alive"), ("Keep-Alive", "timeout=5"), ("ETag", "\"1\"")])
        guard case .watchBody(let delay) = machine.upstreamHead(id, head) else { Issue.record("expected watchBody"); return }
        #expect(delay == Self.timeout)
        guard case .none = machine.upstreamBody(id, ByteBuffer(string: String(body.prefix(5)))) else { Issue.record("expected none"); return }
        guard case .none = machine.upstreamBody(id, ByteBuffer(string: String(body.dropFirst(5)))) else { Issue.record("expected none"); return }

        let check = try #require(Self.check(machine.upstreamEnd(id)))
        #expect(check.status == 200)
        #expect(check.body.map { String(buffer: $0) } == body)
        #expect(check.headers["etag"] == ["\"1\""])
        // Hop-by-hop headers (and the framing) are the proxy's own to set.
        #expect(!check.headers.contains(name: "connection") && !check.headers.contains(name: "keep-alive") && !check.headers.contains(name: "content-length"))
        #expect(check.transcript.responseSize == body.utf8.count)

        let finish = try #require(Self.finish(machine.checked([Self.violation])))
        let written = try #require(finish.head)
        #expect(written.status == .ok)
        #expect(written.headers["content-length"] == ["\(body.utf8.count)"])
        #expect(written.headers["connection"] == ["keep-alive"])
        #expect(written.headers[ViolationHeader.name] == [ViolationHeader.value(Self.violation)])
        #expect(finish.body.map { String(buffer: $0) } == body)
        #expect(finish.keepsUpstream)
        #expect(!finish.closesClient)
        #expect(finish.failure == nil)
        #expect(finish.record.status == 200)
        #expect(finish.record.violations == [Self.violation])
        #expect(finish.record.transcript.responseBytes == Array(body.utf8))
        #expect(machine.current == nil)
    }

    @Test func aHeldAnswerToAHeadRequestWritesNoBodyAndAClosingTargetIsNotKept() throws {
        var (machine, id) = Self.started(Self.head(.HEAD))
        _ = machine.upstreamHead(id, Self.answer([("Content-Type", "application/json"), ("Content-Length", "2"), ("Connection", "close")]))
        _ = machine.upstreamBody(id, ByteBuffer(string: "{}"))
        _ = try #require(Self.check(machine.upstreamEnd(id)))
        let finish = try #require(Self.finish(machine.checked([])))
        #expect(finish.body == nil)
        #expect(finish.head?.headers["content-length"] == ["2"])
        #expect(!finish.keepsUpstream)
    }

    @Test func aHeldAnswerThatOutgrowsTheHoldStreamsWithWhatWasHeld() throws {
        var (machine, id) = Self.started()
        _ = machine.upstreamHead(id, Self.answer([("Content-Type", "application/json")]))
        let first = ByteBuffer(repeating: UInt8(ascii: "a"), count: Exchange.jsonValidationLimit)
        guard case .none = machine.upstreamBody(id, first) else { Issue.record("expected none"); return }
        let check = try #require(Self.check(machine.upstreamBody(id, ByteBuffer(string: "bc"))))
        // The head is checked as a streamed one: without a body, before the journal got any of it.
        #expect(check.body == nil)
        #expect(check.transcript.responseSize == 0)
        guard case .streamHead(let streamed) = machine.checked([]) else { Issue.record("expected streamHead"); return }
        #expect(!streamed.armsBodyWatch)
        #expect(streamed.body.map(\.readableBytes) == [Exchange.jsonValidationLimit, 2])
        #expect(streamed.head.headers["content-length"].isEmpty)
        guard case .writeBody(let more) = machine.upstreamBody(id, ByteBuffer(string: "d")) else { Issue.record("expected writeBody"); return }
        #expect(String(buffer: more) == "d")
        let finish = try #require(Self.finish(machine.upstreamEnd(id)))
        #expect(finish.record.transcript.responseSize == Exchange.jsonValidationLimit + 3)
        #expect(finish.record.transcript.responseBytes.count == 1024)
    }

    // MARK: A streamed answer

    @Test func aNonJSONAnswerStreamsFromItsCheckedHead() throws {
        var (machine, id) = Self.started()
        let head = Self.answer([("Content-Type", "text/plain"), ("Content-Length", "5"), ("Connection", "close")])
        let check = try #require(Self.check(machine.upstreamHead(id, head)))
        #expect(check.body == nil)
        #expect(check.status == 200)
        #expect(!check.headers.contains(name: "content-length"))

        guard case .streamHead(let streamed) = machine.checked([Self.violation]) else { Issue.record("expected streamHead"); return }
        #expect(streamed.armsBodyWatch)
        #expect(streamed.body.isEmpty)
        // The client's framing is the target's length; its connection header is the client's own.
        #expect(streamed.head.headers["content-length"] == ["5"])
        #expect(streamed.head.headers["connection"] == ["keep-alive"])
        #expect(streamed.head.headers[ViolationHeader.name].count == 1)

        guard case .writeBody(let chunk) = machine.upstreamBody(id, ByteBuffer(string: "hel")) else { Issue.record("expected writeBody"); return }
        #expect(String(buffer: chunk) == "hel")
        guard case .none = machine.upstreamBody(id, ByteBuffer()) else { Issue.record("an empty chunk is not written"); return }
        _ = machine.upstreamBody(id, ByteBuffer(string: "lo"))

        let finish = try #require(Self.finish(machine.upstreamEnd(id)))
        #expect(finish.head == nil && finish.body == nil)
        // The target said close: its connection is not kept.
        #expect(!finish.keepsUpstream)
        #expect(!finish.closesClient)
        #expect(finish.record.violations == [Self.violation])
        #expect(finish.record.transcript.responseBytes == Array("hello".utf8))
        #expect(!finish.record.headers.contains(name: "connection"))
    }

    @Test func aStreamedAnswerToAHeadRequestWritesNoBodyButJournalsItsSize() throws {
        var (machine, id) = Self.started(Self.head(.HEAD))
        _ = try #require(Self.check(machine.upstreamHead(id, Self.answer([("Content-Type", "text/plain")]))))
        guard case .streamHead = machine.checked([]) else { Issue.record("expected streamHead"); return }
        guard case .none = machine.upstreamBody(id, ByteBuffer(string: "abc")) else { Issue.record("a HEAD answer has no body to write"); return }
        let finish = try #require(Self.finish(machine.upstreamEnd(id)))
        #expect(finish.record.transcript.responseSize == 3)
        #expect(finish.keepsUpstream)
    }

    @Test func anInterimAnswerIsNotTheAnswer() throws {
        var (machine, id) = Self.started()
        guard case .none = machine.upstreamHead(id, Self.answer([], status: .continue)) else { Issue.record("expected none"); return }
        let check = try #require(Self.check(machine.upstreamHead(id, Self.answer([("Content-Type", "image/png")], status: .created))))
        #expect(check.status == 201)
    }

    // MARK: Upstream connect failure

    @Test func aTargetThatCannotBeReachedIsA502AndItsLateConnectionIsDropped() throws {
        var (machine, id) = Self.started(attached: false)
        let check = try #require(Self.check(machine.upstreamConnectFailed(id, reason: "connection refused")))
        #expect(check.status == 502)
        #expect(check.body.map { String(buffer: $0).contains("connection refused") } == true)
        let finish = try #require(Self.finish(machine.checked([])))
        #expect(finish.failure == .upstreamFailed(target: Self.target, reason: "connection refused"))
        #expect(finish.head?.status == .badGateway)
        #expect(finish.head?.headers["content-length"] == ["\(finish.body?.readableBytes ?? -1)"])
        // The request had ended: the client's connection stays open.
        #expect(finish.head?.headers["connection"] == ["keep-alive"])
        #expect(!finish.closesClient)
        #expect(!finish.keepsUpstream)
        #expect(finish.record.status == 502)
        #expect(finish.record.transcript.responseSize == finish.body?.readableBytes)
        guard case .dropUpstream = machine.upstreamConnected(id) else { Issue.record("expected dropUpstream"); return }
    }

    @Test func aFailureBeforeTheRequestEndedClosesTheClientsConnection() throws {
        var (machine, id) = Self.started(Self.head(.POST), ended: false)
        _ = machine.receivedBody(ByteBuffer(string: "abc"))
        _ = try #require(Self.check(machine.upstreamWriteFailed(id, reason: "refused")))
        let finish = try #require(Self.finish(machine.checked([])))
        #expect(finish.failure == .upstreamFailed(target: Self.target, reason: "the request could not be written: refused"))
        #expect(finish.head?.headers["connection"] == ["close"])
        #expect(finish.closesClient)
        #expect(finish.record.transcript.requestSize == 3)
        // The rest of the body has nowhere to go.
        guard case .none = machine.receivedBody(ByteBuffer(string: "def")) else { Issue.record("expected none"); return }
    }

    // MARK: An upstream that closes mid-body

    @Test func aTargetClosingMidBodyOfAHeldAnswerIsA502() throws {
        var (machine, id) = Self.started()
        _ = machine.upstreamHead(id, Self.answer([("Content-Type", "application/json"), ("Content-Length", "100")]))
        _ = machine.upstreamBody(id, ByteBuffer(string: "{\"a\""))
        let check = try #require(Self.check(machine.upstreamClosed(id)))
        #expect(check.status == 502)
        let finish = try #require(Self.finish(machine.checked([])))
        #expect(finish.failure == .upstreamFailed(target: Self.target, reason: "the connection closed before a complete answer"))
        #expect(finish.head?.status == .badGateway)
        // What was held never reaches the client or the journal: the 502 replaces it.
        #expect(finish.record.transcript.responseBytes == finish.body.map { Array($0.readableBytesView) })
    }

    @Test func aTargetClosingMidBodyOfAStreamedAnswerCutsTheClient() throws {
        var (machine, id) = Self.started()
        let head = Self.answer([("Content-Type", "application/octet-stream"), ("Content-Length", "100"), ("Connection", "keep-alive")])
        _ = machine.upstreamHead(id, head)
        _ = machine.checked([Self.violation])
        _ = machine.upstreamBody(id, ByteBuffer(string: "0123456789"))
        guard case .cut(let record) = machine.upstreamClosed(id) else { Issue.record("expected cut"); return }
        #expect(record.status == 200)
        #expect(record.violations == [Self.violation])
        #expect(record.transcript.responseSize == 10)
        // The journal keeps the head as the target sent it.
        #expect(record.headers["connection"] == ["keep-alive"])
        #expect(machine.current == nil)
        guard case .none = machine.upstreamEnd(id) else { Issue.record("a cut exchange takes no more events"); return }
    }

    // MARK: Timeouts and stalls

    @Test func noHeadWithinTheTimeoutIsA504() throws {
        var (machine, id) = Self.started()
        _ = try #require(Self.check(machine.answerTimedOut(id)))
        let finish = try #require(Self.finish(machine.checked([])))
        #expect(finish.failure == .upstreamTimedOut(target: Self.target, seconds: 10))
        #expect(finish.head?.status == .gatewayTimeout)
    }

    @Test func theBodyWatchWaitsOutTheRestOfTheWindowAndASlowClient() throws {
        var (machine, id) = Self.started()
        _ = machine.upstreamHead(id, Self.answer([("Content-Type", "application/json")]))
        guard case .watchBody(let rest) = machine.bodyWatchEnded(id, quiet: .seconds(4), clientWritable: true) else {
            Issue.record("expected watchBody"); return
        }
        #expect(rest == .seconds(6))
        // The client's socket is full, so the target is paused: not its fault.
        guard case .watchBody(let again) = machine.bodyWatchEnded(id, quiet: .seconds(30), clientWritable: false) else {
            Issue.record("expected watchBody"); return
        }
        #expect(again == Self.timeout)
    }

    @Test func aHeldAnswerThatStallsIsA504() throws {
        var (machine, id) = Self.started()
        _ = machine.upstreamHead(id, Self.answer([("Content-Type", "application/json"), ("Content-Length", "10")]))
        _ = machine.upstreamBody(id, ByteBuffer(string: "{"))
        let check = try #require(Self.check(machine.bodyWatchEnded(id, quiet: Self.timeout, clientWritable: true)))
        #expect(check.status == 504)
        let finish = try #require(Self.finish(machine.checked([])))
        #expect(finish.failure == .upstreamBodyStalled(target: Self.target, seconds: 10))
        #expect(finish.head?.status == .gatewayTimeout)
        // The stalled connection is never reused.
        #expect(!finish.keepsUpstream)
    }

    @Test func aStreamedAnswerThatStallsIsCut() throws {
        var (machine, id) = Self.started()
        _ = machine.upstreamHead(id, Self.answer([("Content-Type", "text/csv"), ("Content-Length", "1000")]))
        _ = machine.checked([])
        _ = machine.upstreamBody(id, ByteBuffer(string: "a,b"))
        guard case .cut(let record) = machine.bodyWatchEnded(id, quiet: .seconds(11), clientWritable: true) else {
            Issue.record("expected cut"); return
        }
        #expect(record.status == 200)
        #expect(record.transcript.responseSize == 3)
        // Its answer timer, late, finds nothing to fail.
        guard case .none = machine.answerTimedOut(id) else { Issue.record("expected none"); return }
    }

    // MARK: The client going away

    @Test func aClientGoingAwayMidExchangeIsJournaledUnansweredAndLateEventsAreIgnored() throws {
        var (machine, id) = Self.started(Self.head(.PUT, headers: ["Content-Type": "application/json"]), ended: false, attached: false)
        _ = machine.receivedBody(ByteBuffer(string: "{\"title\":\"x\"}"))
        #expect(machine.expectsClientSilence)
        guard case .abandon(let record) = machine.clientClosed() else { Issue.record("expected abandon"); return }
        #expect(record.status == nil)
        #expect(record.violations.isEmpty)
        #expect(record.transcript.requestSize == 13)
        #expect(record.transcript.request.method == .PUT)
        #expect(!machine.expectsClientSilence)
        guard case .dropUpstream = machine.upstreamConnected(id) else { Issue.record("expected dropUpstream"); return }
        guard case .none = machine.upstreamHead(id, Self.answer([("Content-Type", "text/plain")])) else { Issue.record("expected none"); return }
        guard case .none = machine.clientClosed() else { Issue.record("expected none"); return }
    }

    @Test func aClientGoingAwayWhileTheAnswerStreamsIsJournaledWithoutAStatus() throws {
        var (machine, id) = Self.started()
        _ = machine.upstreamHead(id, Self.answer([("Content-Type", "text/plain")]))
        _ = machine.checked([])
        _ = machine.upstreamBody(id, ByteBuffer(string: "partial"))
        guard case .abandon(let record) = machine.clientClosed() else { Issue.record("expected abandon"); return }
        #expect(record.status == nil)
        #expect(record.transcript.responseSize == 7)
    }

    // MARK: Queued and pipelined request parts

    @Test func partsBeforeTheTargetConnectionAreQueuedAndSentInOrderOnceItIsThere() throws {
        var machine = Self.machine()
        guard case .connect(let id) = machine.receivedHead(Self.head(.POST, uri: "/api/v1/announcements?x=1")) else {
            Issue.record("expected connect"); return
        }
        guard case .none = machine.receivedBody(ByteBuffer(string: "abc")) else { Issue.record("expected none"); return }
        guard case .none = machine.receivedBody(ByteBuffer(string: "de")) else { Issue.record("expected none"); return }
        // Not attached: there are no target reads to resume.
        guard case .none = machine.clientBecameWritable() else { Issue.record("expected none"); return }
        guard case .sendQueued(let parts) = machine.upstreamConnected(id) else { Issue.record("expected sendQueued"); return }
        #expect(parts.count == 3)
        guard case .head(let sent)? = parts.first else { Issue.record("expected the head first"); return }
        #expect(sent.uri == "/base/api/v1/announcements?x=1")
        #expect(parts.dropFirst().map(Self.text) == ["abc", "de"])
        // Once attached, parts go straight on, and the end too.
        guard case .send(let part) = machine.receivedBody(ByteBuffer(string: "f")) else { Issue.record("expected send"); return }
        #expect(Self.text(part) == "f")
        guard case .send(.end) = machine.receivedEnd() else { Issue.record("expected send(end)"); return }
        guard case .resumeUpstreamReads = machine.clientBecameWritable() else { Issue.record("expected resumeUpstreamReads"); return }
        guard case .resumeClientReads = machine.upstreamBecameWritable(id) else { Issue.record("expected resumeClientReads"); return }
        guard case .dropUpstream = machine.upstreamConnected(id) else { Issue.record("a second connection is dropped"); return }
    }

    @Test func anEndBeforeTheConnectionIsQueuedToo() throws {
        var (machine, id) = Self.started(ended: false, attached: false)
        guard case .none = machine.receivedEnd() else { Issue.record("expected none"); return }
        guard case .sendQueued(let parts) = machine.upstreamConnected(id) else { Issue.record("expected sendQueued"); return }
        guard parts.count == 2, case .end = parts[1] else { Issue.record("expected head and end, got \(parts)"); return }
    }

    @Test func aPipelinedRequestWhileAnExchangeGoesOnPassesThroughAndTheExchangeGoesOn() throws {
        var (machine, id) = Self.started()
        guard case .passThrough = machine.receivedHead(Self.head(uri: "/second")) else { Issue.record("expected passThrough"); return }
        #expect(machine.passingThrough)
        guard case .passThrough = machine.receivedBody(ByteBuffer(string: "x")) else { Issue.record("expected passThrough"); return }
        guard case .passThrough = machine.receivedEnd() else { Issue.record("expected passThrough"); return }
        #expect(!machine.passingThrough)
        #expect(machine.current == id)
        _ = machine.upstreamHead(id, Self.answer([("Content-Type", "text/plain"), ("Content-Length", "0")]))
        _ = machine.checked([])
        let finish = try #require(Self.finish(machine.upstreamEnd(id)))
        #expect(finish.record.transcript.request.uri == "/api/v1/announcements")
        // The next exchange is a new one: the old one's late events do not reach it.
        guard case .connect(let next) = machine.receivedHead(Self.head(uri: "/third")) else { Issue.record("expected connect"); return }
        #expect(next != id)
        guard case .dropUpstream = machine.upstreamConnected(id) else { Issue.record("expected dropUpstream"); return }
        guard case .sendQueued = machine.upstreamConnected(next) else { Issue.record("expected sendQueued"); return }
    }

    @Test func aHeadTheHandlerSendsTheBufferingWayPassesThrough() {
        var machine = Self.machine()
        guard case .passThrough = machine.receivedHead(nil) else { Issue.record("expected passThrough"); return }
        #expect(machine.current == nil)
        #expect(!machine.expectsClientSilence)
    }
}
