/// The app stopped the user at an earlier step of the report flow than the scenario reaches (protocol key `stoppedAt`),
/// e.g. seed 000's "Photo is mandatory" toast at step 2; the engine judges the stop against the seeds instead of a screen.
public struct EarlierStop: Sendable, Equatable {
    /// The report-flow step (1 chip number, 2 photo, 3 description and location, 4 contact details) where the app stopped.
    public var step: Int
    /// What the app told the user there.
    public var message: String

    /// A stop at `step` with `message`.
    public init(step: Int, message: String) {
        self.step = step
        self.message = message
    }
}
