import Foundation
import ContractKit
import NIOCore
import NIOHTTP1

/// The real backend's `express.json()` step: what a create handler receives, or the parser's own failure.
enum JSONBodyParser {
    /// What the parser leaves for the handler.
    enum Outcome {
        /// No JSON body was read (no body, or another Content-Type): the handler sees `undefined`.
        case undefined
        /// The parsed body (an empty body with the JSON type reads as `{}`).
        case value(JSONValue)
        /// The parser failed; `error` is the answer the contract documents, `trigger` names the known defect.
        case failure(KnownDefect.Trigger, PetSpotError)

        /// The parsed value, or nil for anything else.
        var value: JSONValue? {
            if case .value(let v) = self { return v }
            return nil
        }
    }

    /// Parses like `express.json({ limit: '100kb' })` with its defaults: strict roots, `utf-*` charsets only.
    static func parse(_ request: MockRequest) -> Outcome {
        guard PetSpotBackend.isJSON(request.headers) else { return .undefined }
        if let charset = charset(request.headers), !charset.hasPrefix("utf-") {
            return .failure(.unsupportedCharset, .invalidFormat("unsupported charset \"\(charset.uppercased())\""))
        }
        let bytes = Array(request.body.readableBytesView)
        if bytes.isEmpty { return .value(.object(JSONObject())) }
        // Strict mode: the first non-blank byte must open an object or an array.
        let first = bytes.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        guard let first, first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else {
            if let value = try? JSONValue(parsing: bytes) {
                return .failure(.jsonRootNotContainer, .invalidFormat("Expected object, received \(ZodTypeName.of(value))"))
            }
            return .failure(.malformedJSON, .invalidFormat("Malformed JSON in request body"))
        }
        do {
            return .value(try JSONValue(parsing: bytes))
        } catch {
            return .failure(.malformedJSON, .invalidFormat("Malformed JSON in request body"))
        }
    }

    /// The lowercased `charset` parameter of the Content-Type, if any.
    static func charset(_ headers: HTTPHeaders) -> String? {
        guard let type = headers.first(name: "Content-Type") else { return nil }
        for parameter in type.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "charset" else { continue }
            return pair[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"")).lowercased()
        }
        return nil
    }
}
