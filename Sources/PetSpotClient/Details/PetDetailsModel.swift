/// The pet-details screen's state: loading, loaded or an error with unlimited retry.
@MainActor
public final class PetDetailsModel {
    /// What the screen shows.
    public enum State: Sendable, Equatable {
        /// A full-screen spinner.
        case loading
        /// The details.
        case loaded(PetDetailsPresentation)
        /// A full-screen message with a Retry button.
        case error(String)
    }

    /// The message shown when loading fails, whatever the cause.
    public static let errorMessage = "Unable to load pet details"

    /// The announcement shown.
    public let announcementID: String
    /// The current state.
    public private(set) var state: State = .loading
    /// The error behind the last `.error` state, for logs.
    public private(set) var lastError: (any Error)?
    private let loader: any PetDetailsLoading

    /// Creates the model; call ``loadPetDetails()`` to start (the view does so on appear).
    public init(announcementID: String, loader: any PetDetailsLoading) {
        self.announcementID = announcementID
        self.loader = loader
    }

    /// Loads (or, from the error state, retries; there is no retry limit) the details.
    public func loadPetDetails() async {
        state = .loading
        do {
            let announcement = try await loader.announcement(id: announcementID)
            lastError = nil
            let loader = self.loader
            state = .loaded(PetDetailsPresentation(announcement: announcement, photoURL: { loader.photoURL(for: $0) }))
        } catch {
            lastError = error
            state = .error(Self.errorMessage)
        }
    }

    /// The image view failed to load the photo: show "Image not available".
    public func photoFailedToLoad() {
        guard case .loaded(var presentation) = state else { return }
        presentation.photoFailedToLoad()
        state = .loaded(presentation)
    }
}
