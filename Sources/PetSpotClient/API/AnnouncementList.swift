/// The body of `GET /api/v1/announcements`: `{"data": [...]}`.
struct AnnouncementList: Decodable {
    let data: [Announcement]
}
