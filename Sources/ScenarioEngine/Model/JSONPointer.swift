/// Builds RFC 6901 JSON pointers so problems point at the exact value in a scenario file.
enum JSONPointer {
    /// `base` extended by one object member or array index.
    static func appending(_ base: String, _ token: String) -> String {
        base + "/" + token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    /// `base` extended by an array index.
    static func appending(_ base: String, _ index: Int) -> String {
        base + "/" + String(index)
    }
}
