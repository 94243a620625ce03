import Testing

@testable import ContractModel
@testable import MockBackend

/// The record checksum is CRC-32C as others compute it, so a tool (or a benchmark's generator) can write records.
@Suite struct StoreDataDirectoryChecksumTests {
    @Test func theStandardCheckValue() {
        #expect(CRC32C.checksum(Array("123456789".utf8)) == 0xE306_9283)
        #expect(String(decoding: CRC32C.hex(Array("123456789".utf8)), as: UTF8.self) == "e3069283")
        #expect(CRC32C.checksum([UInt8]()) == 0)
    }
}
