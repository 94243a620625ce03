/// CRC-32C (Castagnoli), the checksum on every data-directory record.
///
/// Written by hand (a 256-entry table, one byte per step): Foundation has no CRC, zlib's `crc32` is not importable
/// from Swift without a system-library target, and swift-crypto would add minutes to a clean build for 20 lines.
/// CRC-32C detects every burst error up to 32 bits, so any single changed byte inside a record is caught.
enum CRC32C {
    private static let table: [UInt32] = (0..<256).map { n -> UInt32 in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 == 1 ? 0x82F6_3B78 ^ (c >> 1) : c >> 1 }
        return c
    }

    /// The checksum of `bytes`.
    static func checksum<C: Collection>(_ bytes: C) -> UInt32 where C.Element == UInt8 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }

    /// The checksum as 8 lowercase hex digits, the form a record carries.
    static func hex<C: Collection>(_ bytes: C) -> [UInt8] where C.Element == UInt8 {
        let value = checksum(bytes)
        let digits = Array("0123456789abcdef".utf8)
        return (0..<8).reversed().map { digits[Int((value >> (UInt32($0) * 4)) & 0xF)] }
    }
}
