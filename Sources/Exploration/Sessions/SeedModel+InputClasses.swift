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

    /// A reward of whitespace only is not empty, so it is sent verbatim (001 FR-006 "store text verbatim"; 003 T037
    /// "verbatim if non-empty"). The sent-report check lets a blank input be absent, so this step names the value.
    static func requireVerbatimReward(_ rewards: [String], in expect: inout JSONObject) {
        guard rewards.count == 1, let reward = rewards.first, !reward.isEmpty,
              reward.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty,
              var journal = expect["journal"]?.objectValue, journal["sentReport"] != nil else { return }
        journal["sentBody"] = ["/reward": .string(reward)]
        expect["journal"] = .object(journal)
    }
}
