/// An error that wraps another; ``ErrorMapping`` follows the chain so wrapping never hides the cause.
public protocol UnderlyingErrorProviding: Error {
    /// The wrapped error, if any.
    var underlyingError: (any Error)? { get }
}
