import Foundation

/// A 128-bit content hash (two 64-bit FNV-1a lanes with different offsets) over file names and bytes, in load order.
/// Not a defence against forgery, which a local cache does not need; it tells changed contracts from unchanged ones.
struct ContentHash {
    private var a: UInt64 = 0xcbf2_9ce4_8422_2325
    private var b: UInt64 = 0x8422_2325_cbf2_9ce4
    private static let prime: UInt64 = 0x0000_0100_0000_01B3

    mutating func add(_ bytes: some Sequence<UInt8>) {
        for byte in bytes {
            a = (a ^ UInt64(byte)) &* Self.prime
            b = (b ^ UInt64(byte ^ 0x5A)) &* Self.prime
        }
    }

    /// Adds a file: its name, its length and its bytes, so moving bytes between files changes the hash.
    mutating func add(file key: String, data: Data) {
        add(Array(key.utf8))
        add([0])
        add(Array(String(data.count).utf8))
        add([0])
        data.withUnsafeBytes { add($0) }
    }

    var hex: String { String(format: "%016llx%016llx", a, b) }
}
