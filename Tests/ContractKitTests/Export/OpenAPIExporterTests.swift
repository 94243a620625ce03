import Foundation
import Testing
@testable import ContractKit

@Suite struct OpenAPIExporterTests {
    let set: ContractSet
    let document: JSONValue

    init() throws {
        set = try ContractSet.load(from: ContractSet.bundledDirectory)
        document = OpenAPIExporter(contracts: set).document()
    }

    func operation(_ contract: Contract) -> JSONValue? {
        document["paths"]?[contract.pathTemplate]?[contract.method.lowercased()]
    }

    @Test func theRenderedDocumentHasNoRawControlCharacterAYAMLReaderRefuses() throws {
        // The upload's raw example bodies hold PNG's signature byte U+0089: escaped, it reads back as the same string.
        let text = OpenAPIExporter(contracts: set).render()
        #expect(!text.unicodeScalars.contains { (0x7F...0x9F).contains($0.value) })
        #expect(text.contains("\\u0089PNG"))
        #expect(try JSONValue(parsing: Data(text.utf8)) == document)
    }

    @Test func declaresOpenAPI31() {
        #expect(document["openapi"] == "3.1.0")
        #expect(document["info"]?["title"] != nil)
        #expect(document["info"]?["version"] != nil)
    }

    @Test func everyContractIsAnOperation() throws {
        for contract in set.contracts {
            let op = try #require(operation(contract), "\(contract.id)")
            #expect(op["operationId"] == .string(contract.id))
            let statuses = Set(contract.responses.map { String($0.status) })
            #expect(Set(op["responses"]?.objectValue?.keys ?? []) == statuses, "\(contract.id)")
        }
    }

    @Test func everySharedSchemaIsAComponentWithoutDialectNoise() {
        let components = document["components"]?["schemas"]?.objectValue
        #expect(Set(components?.keys ?? []) == Set(set.schemas.keys))
        #expect(components?["Announcement"]?["$schema"] == nil)
        #expect(components?["Announcement"]?["required"]?.arrayValue?.count == 18)
    }

    @Test func everyReferencePointsAtAnExistingComponent() {
        var refs: [String] = []
        func collect(_ value: JSONValue) {
            switch value {
            case .object(let object):
                for (key, child) in object {
                    if key == "$ref", let ref = child.stringValue { refs.append(ref) } else { collect(child) }
                }
            case .array(let items): items.forEach(collect)
            default: break
            }
        }
        collect(document)
        #expect(!refs.isEmpty)
        for ref in refs {
            #expect(ref.hasPrefix("#/components/schemas/"), "\(ref)")
            #expect(JSONPointer.resolve(String(ref.dropFirst()), in: document) != nil, "\(ref) does not resolve")
        }
    }

    @Test func everyExampleAndCodeIsCarried() throws {
        for contract in set.contracts {
            let op = try #require(operation(contract))
            for response in contract.responses {
                let exported = try #require(op["responses"]?[String(response.status)])
                if let code = response.code {
                    #expect(exported["x-spotcheck-codes"]?.arrayValue?.contains(.string(code)) == true, "\(contract.id) \(code)")
                    #expect(exported["description"]?.stringValue?.contains(response.when) == true)
                }
                guard let contentType = response.contentType else { continue }
                let examples = exported["content"]?[contentType]?["examples"]?.objectValue
                for example in response.examples where example.body != nil {
                    #expect(examples?.members.contains { $0.value["value"] == example.body } == true, "\(contract.id) \(example.name)")
                }
                // Responses sharing a status share one OpenAPI entry; the body parser's answers have no request-id header.
                #expect(exported["headers"]?["request-id"]?["required"]?.boolValue != nil)
            }
        }
    }

    @Test func requestsCarryParametersBodiesLimitsAndSecurity() throws {
        let create = try #require(set.contract(id: "createAnnouncement").flatMap(operation))
        #expect(create["requestBody"]?["content"]?["application/json"]?["schema"]?["$ref"] == "#/components/schemas/CreateAnnouncementRequest")
        #expect(create["requestBody"]?["x-maxBodyBytes"] == 102400)
        #expect(create["requestBody"]?["content"]?["application/json"]?["examples"]?.objectValue?.count == 2)
        let upload = try #require(set.contract(id: "uploadPhoto").flatMap(operation))
        #expect(upload["security"] == [["basicAuth": []]])
        #expect(upload["parameters"]?.arrayValue?.first?["in"] == "path")
        #expect(upload["requestBody"]?["content"]?["multipart/form-data"]?["schema"]?["required"] == ["photo"])
        let list = try #require(set.contract(id: "listAnnouncements").flatMap(operation))
        #expect(list["parameters"]?.arrayValue?.map { $0["name"] } == ["lat", "lng", "range"])
        #expect(document["components"]?["securitySchemes"]?["basicAuth"]?["scheme"] == "basic")
        #expect(document["components"]?["securitySchemes"]?["Authorization-apiKey"]?["in"] == "header")
    }

    @Test func imagesAreDescribedByTheirMediaType() throws {
        let image = try #require(set.contract(id: "getImage").flatMap(operation))
        #expect(image["responses"]?["200"]?["content"]?["image/*"]?["schema"]?["contentMediaType"] == "image/*")
    }

    @Test func slugsAreStable() {
        #expect(OpenAPIExporter.slug("species missing") == "species-missing")
        #expect(OpenAPIExporter.slug("body over 100 KB!") == "body-over-100-kb")
    }
}
