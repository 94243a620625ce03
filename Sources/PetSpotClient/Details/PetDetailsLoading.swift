import Foundation

/// Where the details screen gets an announcement from; ``AnnouncementAPI`` is the real source.
public protocol PetDetailsLoading: Sendable {
    /// Loads one announcement.
    func announcement(id: String) async throws -> Announcement
    /// Resolves the announcement's `photoUrl` to a loadable URL.
    func photoURL(for photoPath: String) -> URL?
}

extension AnnouncementAPI: PetDetailsLoading {}
