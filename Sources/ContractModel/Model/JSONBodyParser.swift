import Foundation
import ContractKit

/// The JSON body parser in front of endpoints that take a JSON body (Express's `express.json()` for PetSpot): what
/// the handler receives, or the parser's own failure, answered as `service.json`'s `bodyParser` says.
enum JSONBodyParser {
    /// What the parser leaves for the handler.
    enum Outcome {
        /// No JSON body was read (no body, or another Content-Type): the handler sees `undefined`.
        case undefined
        /// The parsed body (an empty body with the JSON type reads as `{}`).
        case value(JSONValue)
        /// The parser failed; `error` is the service file's answer, `trigger` names the known defect. For
        /// `jsonRootNotContainer` the body is valid JSON that the handler judges instead (see `rootValue`).
        case failure(KnownDefect.Trigger, ModelError)

        /// The parsed value, or nil for anything else.
        var value: JSONValue? {
            if case .value(let v) = self { return v }
            return nil
        }
    }

    /// Parses like a strict JSON parser with `utf-*` charsets only, answering with `parser`'s answers.
    static func parse(_ request: ModelRequest, parser: ServiceFile.BodyParser = ServiceFile.plain.bodyParser) -> Outcome {
        guard ModelExecutor.isJSON(request.headers) else { return .undefined }
        if let charset = charset(request.headers), !charset.hasPrefix("utf-") {
            return .failure(.unsupportedCharset, failure(parser.unsupportedCharset.filling(["charset": charset.uppercased()]), parser))
        }
        let bytes = Array(request.body)
        if bytes.isEmpty { return .value(.object(JSONObject())) }
        // Strict mode: the first non-blank byte must open an object or an array.
        let first = bytes.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        guard let first, first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else {
            if (try? JSONValue(parsing: bytes, loneSurrogates: parser.loneSurrogates)) != nil {
                // What the handler answers is the contract's; the parser's own refusal is only the listed defect.
                return .failure(.jsonRootNotContainer, ModelError.internalError)
            }
            return .failure(.malformedJSON, failure(parser.malformed, parser))
        }
        do {
            return .value(try JSONValue(parsing: bytes, loneSurrogates: parser.loneSurrogates))
        } catch {
            return .failure(.malformedJSON, failure(parser.malformed, parser))
        }
    }

    /// The valid JSON of a body whose root is not an object or array: what the handler sees when the strict parser's
    /// refusal is not reproduced.
    static func rootValue(_ request: ModelRequest, loneSurrogates: LoneSurrogatePolicy = .refuse) -> JSONValue? {
        try? JSONValue(parsing: request.body, loneSurrogates: loneSurrogates)
    }

    private static func failure(_ answer: ServiceAnswer, _ parser: ServiceFile.BodyParser) -> ModelError {
        var error = ModelError(answer)
        error.beforeRequestID = parser.beforeRequestID
        return error
    }

    /// The lowercased `charset` parameter of the Content-Type, if any.
    static func charset(_ headers: HeaderFields) -> String? {
        // Most requests send no parameter at all: no splitting then (it was 1 % of a create).
        guard let type = headers.first(name: "Content-Type"), type.utf8.contains(UInt8(ascii: ";")) else { return nil }
        for parameter in type.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "charset" else { continue }
            return pair[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"")).lowercased()
        }
        return nil
    }
}
