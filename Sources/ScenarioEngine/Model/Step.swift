import MockBackend

/// One thing the user (or a raw HTTP request) does in a scenario, with what must be true afterwards.
public struct Step: Sendable {
    /// 1-based position in the scenario.
    public let number: Int
    /// The JSON pointer of the step in its file, e.g. `/steps/2`.
    public let pointer: String
    /// What happens.
    public let action: StepAction
    /// What must be observed afterwards.
    public let expect: StepExpectation
    /// An expectation still to be written (`"todo"`), which `spotcheck lint` reports until it is filled in and removed.
    public let todo: String?

    /// A step at `number` with this action and expectation.
    public init(number: Int, pointer: String, action: StepAction, expect: StepExpectation, todo: String? = nil) {
        self.todo = todo
        self.number = number
        self.pointer = pointer
        self.action = action
        self.expect = expect
    }
}
