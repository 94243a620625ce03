/// The PetSpot endpoint a request was made to; the raw values are the contract ids.
public enum AnnouncementOperation: String, Sendable, Hashable, CaseIterable {
    /// `POST /api/v1/announcements`, step 1 of a submission.
    case createAnnouncement
    /// `POST /api/v1/announcements/{id}/photos`, step 2 of a submission.
    case uploadPhoto
    /// `GET /api/v1/announcements/{id}`.
    case getAnnouncement
    /// `GET /api/v1/announcements`.
    case listAnnouncements
}
