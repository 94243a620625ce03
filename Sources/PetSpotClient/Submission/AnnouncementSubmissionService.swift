/// The two-step submission: create the announcement, then upload its photo with Basic `id:managementPassword`.
public struct AnnouncementSubmissionService: ReportSubmitting {
    /// The API both steps go through.
    public let api: AnnouncementAPI

    /// Creates the service.
    public init(api: AnnouncementAPI) {
        self.api = api
    }

    /// Runs both steps; success only when both answered 201. A missing photo or required field
    /// fails before any request; partial failures are not recovered (a retry starts from step 1).
    public func submit(_ draft: ReportDraft) async throws(SubmissionError) -> SubmissionReceipt {
        let problems = draft.submissionProblems()
        guard problems.isEmpty, let body = draft.newAnnouncement(), let photo = draft.photo else {
            throw .invalidDraft(problems)
        }
        let created: CreatedAnnouncement
        do {
            created = try await api.createAnnouncement(body)
        } catch {
            throw .createFailed(error)
        }
        guard Self.isManagementPassword(created.managementPassword) else {
            throw .invalidManagementPassword(announcementID: created.id, password: created.managementPassword)
        }
        do {
            try await api.uploadPhoto(photo, announcementID: created.id, managementPassword: created.managementPassword)
        } catch {
            throw .photoUploadFailed(announcementID: created.id, error: error)
        }
        return SubmissionReceipt(announcementID: created.id, managementPassword: created.managementPassword)
    }

    /// Exactly six ASCII digits, as the backend promises.
    public static func isManagementPassword(_ value: String) -> Bool {
        value.utf8.count == 6 && value.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }
}
