// The cost of Express's weak ETag on one GET answer: SHA-1 (Sources/MockBackend/PetSpot/SHA1.swift) and base64, -O build.
import Foundation
// A typical stored announcement as GET answers it (~560 bytes) and a create answer.
let body = Array(#"{"id":"3f1c2a9e-5b7d-4e8a-9c1f-2d3e4f5a6b7c","petName":"Rex","species":"DOG","breed":"Beagle","sex":"MALE","age":3,"description":"Brown collar, friendly","microchipNumber":"123456789012","locationLatitude":52.2297,"locationLongitude":21.0122,"lastSeenDate":"2025-11-18","email":"owner@example.com","phone":"+48 123 456 789","photoUrl":null,"status":"MISSING","reward":"100 PLN","createdAt":"2025-11-19T10:00:00.000Z","updatedAt":"2025-11-19T10:00:00.000Z"}"#.utf8)
var sink: UInt8 = 0
let n = 200_000
let start = Date()
for _ in 0..<n {
    let d = body.withUnsafeBytes { SHA1.digest(of: $0) }
    let tag = "W/\"" + String(body.count, radix: 16) + "-" + String(Data(d).base64EncodedString().prefix(27)) + "\""
    sink ^= d[0] ^ UInt8(truncatingIfNeeded: tag.utf8.count)
}
let elapsed = Date().timeIntervalSince(start)
print("body \(body.count) bytes: \(String(format: "%.2f", elapsed / Double(n) * 1e6)) µs per weak ETag (SHA-1 + base64), sink \(sink)")
