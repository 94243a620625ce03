import Foundation
import OpenAPIKit
import OpenAPIKit30

/// The document checked against its own version of the OpenAPI Specification by OpenAPIKit (3.0 with OpenAPIKit30, 3.1
/// with OpenAPIKit): what it cannot decode and what its validation finds (a security requirement naming no scheme, an
/// operation without responses, duplicate operation ids, …), each a warning at its coding path's line. The translation
/// itself reads the document's own ordered tree, since OpenAPIKit keeps `x-` extensions in unordered dictionaries and
/// `x-errors` states its rules' order by its key order.
enum OpenAPIKitCheck {
    static func warnings(for file: OpenAPISourceFile, dialect: OpenAPITranslator.Dialect) -> [OpenAPIProblem] {
        let data = file.value.data()
        var found: [(reason: String, path: [any CodingKey])] = []
        do {
            switch dialect {
            case .openAPI30:
                let document = try JSONDecoder().decode(OpenAPIKit30.OpenAPI.Document.self, from: data)
                found += try document.validate(strict: false).map { ($0.localizedDescription, $0.codingPath ?? []) }
            case .jsonSchema2020:
                let document = try JSONDecoder().decode(OpenAPIKit.OpenAPI.Document.self, from: data)
                found += try document.validate(strict: false).map { ($0.localizedDescription, $0.codingPath ?? []) }
            }
        } catch let errors as OpenAPIKit30.ValidationErrorCollection {
            found += errors.values.map { ($0.reason, $0.codingPath) }
        } catch let errors as OpenAPIKit.ValidationErrorCollection {
            found += errors.values.map { ($0.reason, $0.codingPath) }
        } catch {
            let readable = OpenAPIKit30.OpenAPI.Error(from: error)
            found.append(("the document does not follow the OpenAPI Specification: \(readable.localizedDescription)", readable.codingPath))
        }
        // OpenAPIKit's schema model refuses valid JSON Schema the folder dialect uses (a query parameter's number schema
        // beside its x-parse text rules, a property that only carries x- keys): schemas are linted by SpotCheck's own
        // schema lint instead, so those findings would be false alarms.
        found.removeAll { $0.reason.contains("parsing `Schema`") || $0.reason.contains("parsing `OpenAPI Schema`") }
        return found.map { reason, path in
            let pointer = path.reduce("") { at, key in key.intValue.map { JSONPointer.appending(at, $0) } ?? JSONPointer.appending(at, key.stringValue) }
            return file.problem(pointer, "OpenAPIKit: \(reason)")
        }
    }
}
