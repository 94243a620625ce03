import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import PetSpotClient

@Suite struct ErrorMappingTests {
    /// Every URLError code Apple documents, with the alert it must give. Codes this platform's
    /// Foundation does not define are skipped, so the table stays the single statement of the rule.
    static let table: [(code: Int, name: String, alert: AlertKind)] = [
        (-1, "unknown", .generic),
        (-999, "cancelled", .generic),
        (-995, "backgroundSessionRequiresSharedContainer", .generic),
        (-996, "backgroundSessionInUseByAnotherProcess", .generic),
        (-997, "backgroundSessionWasDisconnected", .generic),
        (-1000, "badURL", .generic),
        (-1001, "timedOut", .noConnection),
        (-1002, "unsupportedURL", .generic),
        (-1003, "cannotFindHost", .noConnection),
        (-1004, "cannotConnectToHost", .noConnection),
        (-1005, "networkConnectionLost", .noConnection),
        (-1006, "dnsLookupFailed", .noConnection),
        (-1007, "httpTooManyRedirects", .generic),
        (-1008, "resourceUnavailable", .generic),
        (-1009, "notConnectedToInternet", .noConnection),
        (-1010, "redirectToNonExistentLocation", .generic),
        (-1011, "badServerResponse", .generic),
        (-1012, "userCancelledAuthentication", .generic),
        (-1013, "userAuthenticationRequired", .generic),
        (-1014, "zeroByteResource", .generic),
        (-1015, "cannotDecodeRawData", .generic),
        (-1016, "cannotDecodeContentData", .generic),
        (-1017, "cannotParseResponse", .generic),
        (-1018, "internationalRoamingOff", .noConnection),
        (-1019, "callIsActive", .noConnection),
        (-1020, "dataNotAllowed", .noConnection),
        (-1021, "requestBodyStreamExhausted", .generic),
        (-1022, "appTransportSecurityRequiresSecureConnection", .generic),
        (-1100, "fileDoesNotExist", .generic),
        (-1101, "fileIsDirectory", .generic),
        (-1102, "noPermissionsToReadFile", .generic),
        (-1103, "dataLengthExceedsMaximum", .generic),
        (-1104, "fileOutsideSafeArea", .generic),
        (-1200, "secureConnectionFailed", .generic),
        (-1201, "serverCertificateHasBadDate", .generic),
        (-1202, "serverCertificateUntrusted", .generic),
        (-1203, "serverCertificateHasUnknownRoot", .generic),
        (-1204, "serverCertificateNotYetValid", .generic),
        (-1205, "clientCertificateRejected", .generic),
        (-1206, "clientCertificateRequired", .generic),
        (-2000, "cannotLoadFromNetwork", .generic),
        (-3000, "cannotCreateFile", .generic),
        (-3001, "cannotOpenFile", .generic),
        (-3002, "cannotCloseFile", .generic),
        (-3003, "cannotWriteToFile", .generic),
        (-3004, "cannotRemoveFile", .generic),
        (-3005, "cannotMoveFile", .generic),
        (-3006, "downloadDecodingFailedMidStream", .generic),
        (-3007, "downloadDecodingFailedToComplete", .generic),
    ]

    @Test func everyURLErrorCodeMapsAsDocumented() {
        var checked = 0
        for entry in Self.table {
            guard let code = urlErrorCode(entry.code) else { continue }
            #expect(ErrorMapping.alert(for: URLError(code)) == entry.alert, "URLError \(entry.name) (\(entry.code))")
            checked += 1
        }
        // At least the codes the issue names must exist everywhere.
        #expect(checked >= 9)
    }

    @Test func theNoConnectionSetIsExactlyTheDocumentedOne() {
        let expected = Set(Self.table.filter { $0.alert == .noConnection }.compactMap { urlErrorCode($0.code) })
        #expect(ErrorMapping.noConnectionCodes == expected)
        #expect(ErrorMapping.noConnectionCodes.count == 9)
    }

    @Test func messagesAreTheSeedsExactWords() {
        #expect(AlertKind.noConnection.message == "No connection. Please check your network and try again.")
        #expect(AlertKind.generic.message == "Something went wrong. Please try again later.")
        #expect(AlertKind.buttonTitles == ["Try Again", "Cancel"])
    }

    @Test func offlineSurvivesEveryClientWrappingLayer() {
        let offline = URLError(.notConnectedToInternet)
        let createFailed = SubmissionError.createFailed(.transport(operation: .createAnnouncement, error: offline))
        let uploadFailed = SubmissionError.photoUploadFailed(announcementID: "a", error: .transport(operation: .uploadPhoto, error: URLError(.timedOut)))
        #expect(ErrorMapping.alert(for: createFailed) == .noConnection)
        #expect(ErrorMapping.alert(for: uploadFailed) == .noConnection)
        #expect(ErrorMapping.connectivityError(in: createFailed)?.code == .notConnectedToInternet)
    }

    /// The real iOS client's repository wraps URLErrors; any wrapper that exposes its cause keeps "offline".
    struct RepositoryError: UnderlyingErrorProviding {
        let underlyingError: (any Error)?
    }

    @Test func offlineSurvivesAnAppWrapperThatExposesItsCause() {
        let wrapped = RepositoryError(underlyingError: RepositoryError(underlyingError: URLError(.cannotConnectToHost)))
        #expect(ErrorMapping.alert(for: wrapped) == .noConnection)
    }

    @Test func offlineSurvivesNSErrorUnderlyingChains() {
        let inner = NSError(domain: NSURLErrorDomain, code: -1009)
        let outer = NSError(domain: "AppRepository", code: 7, userInfo: [NSUnderlyingErrorKey: inner])
        #expect(ErrorMapping.alert(for: outer) == .noConnection)
        #expect(ErrorMapping.alert(for: inner) == .noConnection)
    }

    @Test func nonConnectivityFailuresAreGeneric() {
        let http = SubmissionError.createFailed(.http(HTTPStatusFailure(operation: .createAnnouncement, status: 503, expectedStatus: 201, envelope: nil, bodyExcerpt: "")))
        let badBody = SubmissionError.createFailed(.undecodableBody(UndecodableBody(operation: .createAnnouncement, status: 201, reason: "x", bodyExcerpt: "{")))
        let badServer = SubmissionError.photoUploadFailed(announcementID: "a", error: .transport(operation: .uploadPhoto, error: URLError(.badServerResponse)))
        #expect(ErrorMapping.alert(for: http) == .generic)
        #expect(ErrorMapping.alert(for: badBody) == .generic)
        #expect(ErrorMapping.alert(for: badServer) == .generic)
        #expect(ErrorMapping.alert(for: SubmissionError.invalidDraft([])) == .generic)
        #expect(ErrorMapping.alert(for: SubmissionError.invalidManagementPassword(announcementID: "a", password: "12")) == .generic)
        #expect(ErrorMapping.alert(for: CancellationError()) == .generic)
    }

    /// A wrapper whose cause is itself is a programming error; mapping must still end.
    final class SelfWrapping: UnderlyingErrorProviding, @unchecked Sendable {
        var underlyingError: (any Error)? { self }
    }

    @Test func aCyclicWrapperChainEnds() {
        #expect(ErrorMapping.alert(for: SelfWrapping()) == .generic)
    }
}
