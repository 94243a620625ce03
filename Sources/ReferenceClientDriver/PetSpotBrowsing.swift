import ContractKit
import Foundation
import ScenarioEngine
import PetSpotClient

/// The reference client's screens outside a report flow: pet details (with its retry) and the list. Every flow's session
/// has them, as the app does whichever report the user starts.
@MainActor
final class PetSpotBrowsing {
    let api: AnnouncementAPI
    private var details: PetDetailsModel?

    init(api: AnnouncementAPI) {
        self.api = api
    }

    /// Performs `.loadDetails`, `.retryDetails` or `.list`; any other action is a caller's mistake.
    func perform(_ action: ClientAction) async throws(DriverError) -> ClientObservation {
        switch action {
        case .loadDetails(let id):
            let model = PetDetailsModel(announcementID: id, loader: api)
            details = model
            await model.loadPetDetails()
            return Self.observation(model)
        case .retryDetails:
            guard let details else { throw DriverError("\"retryDetails\" needs a details screen opened by \"loadDetails\" first") }
            await details.loadPetDetails()
            return Self.observation(details)
        case .list(let lat, let lng, let range):
            let location = lat.flatMap { la in lng.map { (latitude: la, longitude: $0) } }
            do {
                let items = try await api.announcements(near: location, rangeKm: range)
                return ClientObservation(outcome: .success, listedIDs: items.map(\.id))
            } catch {
                let kind = ErrorMapping.alert(for: error)
                return ClientObservation(outcome: .failure, alert: ObservedAlert(kind: kind.rawValue, message: kind.message, buttons: AlertKind.buttonTitles),
                                         cause: PetSpotClientSession.observed(ErrorMapping.cause(for: error)))
            }
        default:
            throw DriverError("the details and list screens have no \"\(action.name)\"")
        }
    }

    private static func observation(_ model: PetDetailsModel) -> ClientObservation {
        switch model.state {
        case .loading:
            return ClientObservation(outcome: .failure, details: ObservedDetails(state: "loading"))
        case .error(let message):
            return ClientObservation(outcome: .failure, details: ObservedDetails(state: "error", message: message),
                                     cause: model.lastError.map { PetSpotClientSession.observed(ErrorMapping.cause(for: $0)) })
        case .loaded(let p):
            return ClientObservation(outcome: .success, details: ObservedDetails(state: "loaded", presentation: presentationValues(p)))
        }
    }

    /// The presented values under the names scenario files use (docs/client-protocol.md lists them).
    static func presentationValues(_ p: PetDetailsPresentation) -> [String: String] {
        let none = "(none)"
        let photo: String
        switch p.photo {
        case .image: photo = "image"
        case .unavailable: photo = PetDetailsPresentation.imageUnavailableText
        }
        return [
            "id": p.id, "status": p.status.text, "statusColor": p.status.color.rawValue, "reward": p.reward ?? none,
            "lastSeenDate": p.lastSeenDate, "species": p.species, "breed": p.breed, "sex": p.sex, "age": p.age,
            "microchipNumber": p.microchipNumber, "location": p.location, "description": p.description,
            "phone": p.phone ?? none, "email": p.email ?? none, "photo": photo,
        ]
    }
}
