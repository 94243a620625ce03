import ContractModel
import NIOCore

#if canImport(Glibc)
    import Glibc
#endif

/// Hands freed heap back to the system once the server has no connections left.
///
/// glibc keeps memory freed by other threads in its arenas, so after a burst of a thousand connections the
/// process looks as if it grew for good; trimming when idle brings RSS back to its baseline.
enum IdleMemoryTrim {
    /// How long the server must stay without connections before it trims, so busy reconnecting clients never pay for it.
    static let delay = TimeAmount.seconds(1)

    #if canImport(Glibc)
        private typealias Trim = @convention(c) (Int) -> Int32
        // Looked up at run time: Swift's Glibc module does not export <malloc.h>, and other C libraries lack the call.
        private static let mallocTrim: Trim? = dlsym(nil, "malloc_trim").map { unsafeBitCast($0, to: Trim.self) }
    #endif

    /// Returns free heap pages to the system (glibc only; elsewhere nothing to do).
    static func trim() {
        #if canImport(Glibc)
            _ = mallocTrim?(0)
        #endif
    }
}
