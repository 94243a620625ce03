import ContractKit
import Foundation

/// One request a client could send by mistake: nothing to do with the operation's schema, everything to do with how a
/// body is framed (its JSON root, its syntax, its content type and charset, its multipart parts).
public struct DefectProbe: Sendable, Equatable {
    /// What the request gets wrong, for a person: `a JSON root that is a string`.
    public let label: String
    /// The headers sent (the content type among them, or none).
    public let headers: [String: String]
    /// The body bytes, sent as they are.
    public let body: Data
}

/// The defect probes of an operation that takes a body. A server answers a client's mistake with a 4xx; a 5xx is a
/// defect whatever the document states, since no document can make a crash the answer to a typo.
///
/// An operation without a body gets none: a body on a GET is not a mistake a client makes by accident.
public enum DefectProbes {
    /// The boundary of every multipart probe: fixed, so a failing probe can be replayed byte for byte.
    static let boundary = "spotcheck-probe-7d1c"

    /// The probes for `contract`, framed around `exampleBody` (the operation's own JSON body, when it has one).
    public static func probes(for contract: Contract, exampleBody: JSONValue?, rootType: String?) -> [DefectProbe] {
        let request = contract.request
        let multipart = request.contentType?.hasPrefix("multipart/") == true
        guard request.contentType != nil || request.body != nil || !request.parts.isEmpty else { return [] }
        let declared = request.contentType ?? "application/json"
        var probes: [DefectProbe] = []
        func json(_ label: String, _ text: String, contentType: String = "application/json") {
            probes.append(DefectProbe(label: label, headers: ["Content-Type": contentType], body: Data(text.utf8)))
        }
        // A JSON root of every type but the schema's own (an object, unless the schema says otherwise).
        let roots: [(type: String, text: String, phrase: String)] = [
            ("object", "{}", "an object"), ("string", "\"spotcheck\"", "a string"), ("number", "1", "a number"), ("array", "[]", "an array"),
            ("null", "null", "null"), ("boolean", "true", "a boolean"),
        ]
        // An upload takes no JSON at all: every root is a mistake there.
        let own = multipart ? nil : (rootType == "integer" ? "number" : rootType ?? "object")
        for root in roots where root.type != own {
            json("a JSON root that is \(root.phrase)", root.text)
        }
        json("invalid JSON (cut short)", "{\"spotcheck\":")
        json("an empty body under \(declared)", "", contentType: multipart ? "\(declared); boundary=\(boundary)" : declared)
        let valid = exampleBody.map { $0.serialized() } ?? "{}"
        json("a JSON body with a charset the server cannot know", valid, contentType: "application/json; charset=x-spotcheck-unknown")
        json("a JSON body under a Content-Type the operation does not declare (text/plain)", valid, contentType: "text/plain")
        probes.append(DefectProbe(label: "a JSON body without any Content-Type", headers: [:], body: Data(valid.utf8)))
        if multipart {
            let file = request.parts.first { $0.kind == "file" }?.name ?? "file"
            let text = request.parts.first { $0.kind == "text" }?.name
            let png = SampleUploads.png
            func form(_ parts: [Data]) -> Data {
                var data = Data()
                for part in parts { data.append(Data("--\(boundary)\r\n".utf8)); data.append(part); data.append(Data("\r\n".utf8)) }
                data.append(Data("--\(boundary)--\r\n".utf8))
                return data
            }
            func filePart(name: Data) -> Data {
                var data = Data("Content-Disposition: form-data; name=\"".utf8)
                data.append(name)
                data.append(Data("\"; filename=\"probe.png\"\r\nContent-Type: image/png\r\n\r\n".utf8))
                data.append(png)
                return data
            }
            let theFile = filePart(name: Data(file.utf8))
            let framed = "multipart/form-data; boundary=\(boundary)"
            probes.append(DefectProbe(label: "multipart without a boundary", headers: ["Content-Type": "multipart/form-data"], body: form([theFile])))
            probes.append(DefectProbe(label: "multipart with a part whose name is empty", headers: ["Content-Type": framed],
                                      body: form([filePart(name: Data())])))
            probes.append(DefectProbe(label: "multipart with a part whose name is not UTF-8", headers: ["Content-Type": framed],
                                      body: form([filePart(name: Data([0xFF, 0xFE, 0x70]))])))
            let extra = Data("Content-Disposition: form-data; name=\"\(text == nil ? "spotcheckNote" : "spotcheckExtra")\"\r\n\r\nan extra text part".utf8)
            probes.append(DefectProbe(label: "multipart with an extra text part", headers: ["Content-Type": framed], body: form([theFile, extra])))
            probes.append(DefectProbe(label: "multipart with the file twice", headers: ["Content-Type": framed], body: form([theFile, theFile])))
        }
        return probes
    }
}
