import Foundation
import NIOCore
import Testing

@testable import ContractModel
@testable import MockBackend

/// A non-ASCII byte in a part-header name used to trap MultipartKit's parser and kill the mock (found by Schemathesis).
@Suite struct MultipartHeaderGuardTests {
    typealias S = BundledContractsTestSupport
    static let type = "multipart/form-data; boundary=XyZBoundary42"

    /// The body Schemathesis sent: a delimiter, then "º¤Ð" where the first header name should start.
    static let schemathesisBody: [UInt8] = Array("--XyZBoundary42\r\n".utf8) + [0xC2, 0xBA, 0xC2, 0xA4, 0xC3, 0x90] + Array("--XyZBoundary42--\r\n".utf8)

    static func parsable(_ bytes: [UInt8]) -> Int {
        bytes.withUnsafeBytes { MultipartHeaderGuard.parsableLength(of: $0, boundary: "XyZBoundary42") }
    }

    @Test func aNonASCIIHeaderNameByteEndsTheParsableBytes() {
        #expect(Self.parsable(Self.schemathesisBody) == 17)
        let laterHeader = Array("--XyZBoundary42\r\nContent-Type: image/png\r\nX-\u{E9}: 1\r\n\r\n".utf8)
        #expect(Self.parsable(laterHeader) == 44)
    }

    @Test func nonASCIIInHeaderValuesAndContentIsParsedWhole() {
        // S.png holds bytes over 0x7F, and a UTF-8 filename is a header value, not a name.
        let body = Array(S.multipart(filename: "\u{17C}\u{F3}\u{142}w.png", bytes: S.png).readableBytesView)
        #expect(Self.parsable(body) == body.count)
        #expect(MultipartPhoto.file(named: "photo", in: ByteBuffer(bytes: body), contentType: Self.type).map { Array($0.readableBytesView) } == S.png)
    }

    @Test func theBodySchemathesisSentHasNoPhotoInsteadOfTrapping() {
        #expect(MultipartPhoto.file(named: "photo", in: ByteBuffer(bytes: Self.schemathesisBody), contentType: Self.type) == nil)
    }

    @Test func aPhotoPartCompletedBeforeTheBadHeaderIsKept() {
        var body = S.multipart(bytes: S.png)
        // S.multipart ends with the closing delimiter "--XyZBoundary42--\r\n"; reopen it for a second part.
        body.moveWriterIndex(to: body.writerIndex - 4)
        body.writeBytes(Array("\r\n".utf8) + [0xFF] + Array(": x\r\n\r\nrest\r\n--XyZBoundary42--\r\n".utf8))
        #expect(MultipartPhoto.file(named: "photo", in: body, contentType: Self.type).map { Array($0.readableBytesView) } == S.png)
    }

    @Test func theMockAnswers400AndKeepsServing() async throws {
        try await withPetSpotMock { mock in
            let http = PetSpotHTTP(mock)
            let (id, password) = try await http.create()
            let answer = try await http.send(
                "POST", "/api/v1/announcements/\(id)/photos", headers: ["Content-Type": Self.type, "Authorization": S.basic(id, password)],
                body: Data(Self.schemathesisBody))
            #expect(answer.status == 400)
            // The real server answers 500 to a malformed multipart body; the mock gives the contract's 400.
            #expect(answer.errorCode == "INVALID_FORMAT")
            #expect(answer.contractViolation == nil)
            #expect(try await http.get("/api/health").status == 200)
        }
    }
}
