/// Why a two-step submission failed; each case keeps its cause for ``ErrorMapping``.
public enum SubmissionError: Error, Sendable, CustomStringConvertible, UnderlyingErrorProviding {
    /// The draft lacks a photo or required data; no request was made.
    case invalidDraft([DraftProblem])
    /// Step 1 (create) failed.
    case createFailed(AnnouncementAPIError)
    /// Step 1 answered 201 but its management password is not 6 digits, so step 2 was not tried.
    case invalidManagementPassword(announcementID: String, password: String)
    /// Step 2 (photo upload) failed; the announcement from step 1 exists without a photo.
    case photoUploadFailed(announcementID: String, error: AnnouncementAPIError)

    /// The API error behind the failure, if a request failed.
    public var underlyingError: (any Error)? {
        switch self {
        case .createFailed(let error), .photoUploadFailed(_, let error): error
        case .invalidDraft, .invalidManagementPassword: nil
        }
    }

    /// A sentence for a person.
    public var description: String {
        switch self {
        case .invalidDraft(let problems):
            "The report is incomplete: " + problems.map(\.description).joined(separator: "; ")
        case .createFailed(let error):
            "Creating the announcement failed: \(error)"
        case .invalidManagementPassword(let id, let password):
            "Announcement \(id) was created but its managementPassword \"\(password)\" is not 6 digits"
        case .photoUploadFailed(let id, let error):
            "Announcement \(id) was created but the photo upload failed: \(error)"
        }
    }
}
