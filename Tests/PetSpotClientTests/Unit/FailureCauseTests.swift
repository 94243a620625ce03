import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import PetSpotClient

/// `ErrorMapping.cause(for:)` finds what the networking layer reported through every wrapper the client adds.
@Suite struct FailureCauseTests {
    /// An app-side wrapper that keeps its cause, like a repository error.
    struct RepositoryError: Error, UnderlyingErrorProviding {
        let underlyingError: (any Error)?
    }

    @Test func aWrappedURLErrorKeepsItsDomainAndCode() {
        let transport = AnnouncementAPIError.transport(operation: .createAnnouncement, error: URLError(.cannotConnectToHost))
        let cause = ErrorMapping.cause(for: RepositoryError(underlyingError: SubmissionError.createFailed(transport)))
        #expect(cause == FailureCause(kind: .urlError, domain: NSURLErrorDomain, code: -1004))
        #expect(cause.description == "NSURLErrorDomain -1004")
    }

    @Test func httpStatusesAndUnreadableBodiesAreTheirOwnKinds() {
        let http = AnnouncementAPIError.http(HTTPStatusFailure(operation: .uploadPhoto, status: 503, expectedStatus: 201, envelope: nil, bodyExcerpt: ""))
        #expect(ErrorMapping.cause(for: SubmissionError.photoUploadFailed(announcementID: "a", error: http)) == FailureCause(kind: .httpStatus, status: 503))
        let body = AnnouncementAPIError.undecodableBody(UndecodableBody(operation: .createAnnouncement, status: 201, reason: "no id", bodyExcerpt: "<html>"))
        let cause = ErrorMapping.cause(for: SubmissionError.createFailed(body))
        #expect(cause.kind == .decoding && cause.status == 201 && cause.detail == "no id")
    }

    @Test func aDraftTheClientRefusesToSendIsNotANetworkCause() {
        let cause = ErrorMapping.cause(for: SubmissionError.invalidDraft([DraftProblem(field: "locationLatitude", message: "Enter where the pet was last seen")]))
        #expect(cause.kind == .other)
        #expect(cause.detail?.contains("locationLatitude") == true)
    }

    @Test func anNSErrorInTheURLDomainCounts() {
        let error = NSError(domain: "App", code: 1, userInfo: [NSUnderlyingErrorKey: NSError(domain: NSURLErrorDomain, code: -1009)])
        #expect(ErrorMapping.cause(for: error) == FailureCause(kind: .urlError, domain: NSURLErrorDomain, code: -1009))
    }
}
