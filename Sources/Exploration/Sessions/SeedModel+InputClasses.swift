import ContractKit

/// What the seed model adds for the input and answer classes of issue 43.
extension SeedModel {
    /// Where the explorer's stored announcements and the bundled default report place the pet (StoredPet's fixture).
    static let storedLocation = (latitude: 52.2297, longitude: 21.0122)

    /// How many announcements a list read shows: the stored ones with a photo and those whose photo this session's
    /// uploads stored (at the report's location), within the session's query when it has one (petspot-api list).
    static func listedCount(_ session: Session, photosStored: Int) -> Int {
        let withPhotos = session.stored.filter(\.hasPhoto)
        guard let query = session.listQuery else { return withPhotos.count + photosStored }
        let stored = withPhotos.filter { query.lists(latitude: $0.latitude, longitude: $0.longitude) }.count
        let latitude = session.reportNumbers["locationLatitude"] ?? storedLocation.latitude
        let longitude = session.reportNumbers["locationLongitude"] ?? storedLocation.longitude
        return stored + (query.lists(latitude: latitude, longitude: longitude) ? photosStored : 0)
    }
}
