/// HTTP's case rules for tokens (header names, media types): only ASCII letters fold, every other byte is compared as is.
enum ASCIICase {
    /// `byte` lower-cased if it is an ASCII capital letter.
    static func lower(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
    }
}
