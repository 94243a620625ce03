import Foundation

/// The header values `service.json` states for every answer (`headers`, or `preflight.headers` on a preflight), checked
/// against what a server sent: a stated header sent with another value differs. One the server drops, or one the file
/// does not state, is a change of the header set, which reports keep informational (`verify --strict-headers` fails on it).
public struct StatedHeaders: Sendable {
    /// How one stated header differs.
    public struct Difference: Sendable, Equatable {
        /// The header's name as the service file writes it.
        public let name: String
        /// The stated value.
        public let expected: String
        /// What the server sent instead.
        public let got: String
    }

    private let service: ServiceFile

    /// The stated headers of `service`.
    public init(_ service: ServiceFile) {
        self.service = service
    }

    /// The headers stated for an answer: a preflight's own list, else the one every other answer carries.
    public func stated(preflight: Bool) -> [ServiceFile.Header] {
        preflight ? service.preflight.headers : service.headers
    }

    /// Whether a request is one the service file answers as a CORS preflight (`OPTIONS` with preflights enabled).
    public func isPreflight(method: String) -> Bool {
        service.preflight.enabled && method.uppercased() == "OPTIONS"
    }

    /// Each stated header `headers` (the answer's, names in any case) carries with another value. Repeated headers are
    /// compared by their values joined with `, ` (RFC 9110, section 5.3).
    public func differences(in headers: [(name: String, value: String)], preflight: Bool) -> [Difference] {
        stated(preflight: preflight).compactMap { header in
            let values = headers.filter { $0.name.caseInsensitiveCompare(header.name) == .orderedSame }.map(\.value)
            guard !values.isEmpty else { return nil }
            let got = values.joined(separator: ", ")
            return got == header.value ? nil : Difference(name: header.name, expected: header.value, got: got)
        }
    }
}
