import Foundation
@testable import PetSpotClient

/// A submitter that answers from a script and counts calls, for form logic tests.
actor ScriptedSubmitter: ReportSubmitting {
    private var script: [Result<SubmissionReceipt, SubmissionError>]
    private(set) var submitted: [ReportDraft] = []

    init(_ script: [Result<SubmissionReceipt, SubmissionError>]) {
        self.script = script
    }

    func submit(_ draft: ReportDraft) async throws(SubmissionError) -> SubmissionReceipt {
        submitted.append(draft)
        guard !script.isEmpty else { throw .invalidDraft([DraftProblem(field: "script", message: "no scripted answer left")]) }
        return try script.removeFirst().get()
    }
}

/// Collects analytics events.
@MainActor
final class RecordingAnalytics: AnalyticsSink {
    private(set) var events: [AnalyticsEvent] = []
    func record(_ event: AnalyticsEvent) { events.append(event) }
}

enum Samples {
    /// The 8-byte PNG signature plus padding; the backend detects images by these bytes.
    static let pngBytes = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 0, count: 32))

    static func draft(phone: String = "+48123456789", email: String = "owner@example.com", reward: String = "") -> ReportDraft {
        ReportDraft(
            microchipNumber: "123456789012",
            photo: PhotoAttachment(data: pngBytes, mimeType: "image/png"),
            lastSeenDate: CalendarDay(year: 2025, month: 11, day: 18),
            species: "dog", race: "beagle", sex: "MALE", age: 3,
            latitude: 52.2297, longitude: 21.0122, description: "Brown collar",
            petName: "Rex",
            contact: ContactDetails(phone: phone, email: email, reward: reward)
        )
    }

    static let receipt = SubmissionReceipt(announcementID: "bb3fc451-1f51-407d-bb85-2569dc9baed3", managementPassword: "467432")
    static let offline = SubmissionError.createFailed(.transport(operation: .createAnnouncement, error: URLError(.notConnectedToInternet)))
    static let serverError = SubmissionError.photoUploadFailed(
        announcementID: "a",
        error: .http(HTTPStatusFailure(operation: .uploadPhoto, status: 500, expectedStatus: 201, envelope: nil, bodyExcerpt: ""))
    )
}
