import ContractModel
/// Judges whether a request body still makes progress: every window (the idle timeout) must bring at least
/// `minimumBytes`, or the body counts as a slow trickle and its connection is cut.
///
/// The idle timeout alone cannot catch a trickle: each byte is a read, so one byte every 10 s keeps a
/// connection (and its buffered body) forever. A rate over a whole window can.
struct BodyProgress: Sendable, Equatable {
    /// The fewest bytes a window must bring.
    let minimumBytes: Int
    /// Bytes received since the current window began.
    private(set) var bytesThisWindow = 0

    /// A judge that wants `minimumBytes` per window.
    init(minimumBytes: Int) {
        self.minimumBytes = max(1, minimumBytes)
    }

    /// Counts bytes that just arrived.
    mutating func received(_ count: Int) {
        bytesThisWindow += count
    }

    /// Ends the current window and starts the next: true when the window brought enough for the body to go on.
    mutating func windowEnded() -> Bool {
        defer { bytesThisWindow = 0 }
        return bytesThisWindow >= minimumBytes
    }
}
