import Foundation

/// The API client's requests and answer handling with the active mutant's one change (bench/mutants/). Without a mutant
/// every function hands back its input or accepts the answer, as the reference does.
enum MutantAPI {
    /// The list query as the active mutant sends it.
    static func listQuery(_ location: (latitude: Double, longitude: Double)?, _ rangeKm: Int?) -> ((latitude: Double, longitude: Double)?, Int?) {
        switch ClientMutant.active {
        case .listZeroCoordinateDropped:
            // "No coordinate" read as 0, the classic `if lat` bug.
            guard let location, location.latitude != 0, location.longitude != 0 else { return (nil, rangeKm) }
            return (location, rangeKm)
        case .listRangeDropped: return (location, nil)
        default: return (location, rangeKm)
        }
    }

    /// Whether the path of `operation` is written without percent-encoding its segments (an id pasted into the path).
    static func pastesIDs(_ operation: AnnouncementOperation) -> Bool {
        switch ClientMutant.active {
        case .detailsIdUnencoded: operation == .getAnnouncement
        case .photoPathIdUnencoded: operation == .uploadPhoto
        default: false
        }
    }

    /// The upload's 201 body as the active mutant reads it; throws where that mutant refuses it.
    static func checkUploadBody(_ data: Data, status: Int) throws(AnnouncementAPIError) {
        let reason: String?
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        switch ClientMutant.active {
        case .uploadRequiresJSONBody: reason = object == nil ? "the upload's 201 body is not a JSON object" : nil
        case .uploadRequiresEmptyObject: reason = object?.isEmpty == true ? nil : "the upload's 201 body is not {}"
        case .uploadRequiresPhotoURL: reason = object?["photoUrl"] is String ? nil : "the upload's 201 body has no photoUrl"
        default: reason = nil
        }
        if let reason {
            throw .undecodableBody(UndecodableBody(operation: .uploadPhoto, status: status, reason: reason, bodyExcerpt: BodyExcerpt.of(data)))
        }
    }

    /// A details answer as the active mutant reads it; throws where that mutant refuses it.
    static func checkAnnouncementBody(_ data: Data, status: Int) throws(AnnouncementAPIError) {
        guard ClientMutant.detailsAgeOutOfRangeFails.isOn else { return }
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
        // Step 3's age rule (0...40) applied to what the server hands back, whose schema sets no bound.
        if let age = (object["age"] as? NSNumber)?.intValue, !ReportDraft.ageRange.contains(age) {
            throw .undecodableBody(UndecodableBody(operation: .getAnnouncement, status: status, reason: "age \(age) is out of range",
                                                   bodyExcerpt: BodyExcerpt.of(data)))
        }
    }
}
