import ArgumentParser
import Foundation

/// A size given on the command line: a number of bytes, or one with a K, M or G suffix (powers of 1024), e.g. `256M`.
struct ByteCount: ExpressibleByArgument, Sendable, Equatable, CustomStringConvertible {
    /// The size in bytes.
    let bytes: Int

    /// A size of `bytes`.
    init(bytes: Int) {
        self.bytes = bytes
    }

    /// Parses `123`, `64K`, `256M`, `2G` (also `256MiB`, `256mb`); nil for anything else or a negative or overflowing size.
    init?(argument: String) {
        var text = argument.trimmingCharacters(in: .whitespaces).uppercased()
        for unit in ["IB", "B"] where text.hasSuffix(unit) && text.count > unit.count {
            text.removeLast(unit.count)
            break
        }
        var multiplier = 1
        if let last = text.last, let power = ["K": 1, "M": 2, "G": 3, "T": 4][String(last)] {
            multiplier = 1 << (10 * power)
            text.removeLast()
        }
        guard let number = Int(text), number >= 0 else { return nil }
        let (product, overflow) = number.multipliedReportingOverflow(by: multiplier)
        guard !overflow else { return nil }
        bytes = product
    }

    /// The size as the largest exact unit: `256M`, `1500`.
    var description: String {
        for (suffix, power) in [("G", 3), ("M", 2), ("K", 1)] where bytes > 0 && bytes % (1 << (10 * power)) == 0 {
            return "\(bytes >> (10 * power))\(suffix)"
        }
        return "\(bytes)"
    }

    /// The default value as `--help` shows it.
    var defaultValueDescription: String { description }
}
