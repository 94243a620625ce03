import ContractKit
import ContractModel
import Foundation

/// Multipart cases: each image type, what is not a file or not an image, and files on both sides of every stated size
/// limit; each successful write is read back (the record, and the file where its name is known).
extension RequestGenerator {
    /// Each image type, parts that are missing or misnamed, files that are not images, and sizes around every limit.
    func multipartCases(_ contract: Contract) -> [GeneratedRequest] {
        guard let part = contract.request.parts.first(where: { $0.kind == "file" }), let valid = validRequest(contract, label: "valid") else { return [] }
        let partRequired = [StatedRule.id(contract.id, "/request/parts/\(part.name)", "required")]
        // The file rules `x-state.file.x-errors` answers; the part's requirement and the size limit are request rules.
        let detect = [StatedRule.id(contract.id, "/x-state/file", "detect")]
        let malformed = [StatedRule.id(contract.id, "/x-state/file", "malformed")]
        func with(_ label: String, _ body: GeneratedRequest.Body, headers: [String: String] = [:], exercises: [String] = []) -> GeneratedRequest {
            var request = valid
            request.label = label
            request.body = body
            request.headers = headers
            request.exercises = exercises
            return request
        }
        func file(_ name: String, _ data: Data, fileName: String = "photo.png", type: String? = "image/png") -> GeneratedPart {
            GeneratedPart(name: name, fileName: fileName, contentType: type, data: data)
        }
        var cases = SampleUploads.images.map { image in
            var request = with("a \(image.label) image", .multipart([file(part.name, image.data, fileName: image.fileName, type: image.contentType)]), exercises: detect)
            request.then = readsAfterWrite(slot: 0, photo: image.label == "PNG" ? "png" : nil)
            return request
        }
        cases += [
            with("no part", .multipart([]), exercises: partRequired),
            with("only a text field", .multipart([GeneratedPart(name: "note", fileName: nil, contentType: nil, data: Data("hello".utf8))]), exercises: partRequired),
            with("the file under another part name", .multipart([file("file", SampleUploads.png)]), exercises: partRequired),
            with("two files", .multipart([file(part.name, SampleUploads.png), file(part.name, SampleUploads.png)]), exercises: malformed),
            with("a text file", .multipart([file(part.name, SampleUploads.text, fileName: "notes.txt", type: "text/plain")]), exercises: detect),
            with("a PNG declared as text", .multipart([file(part.name, SampleUploads.png, type: "text/plain")]), exercises: detect),
            with("an empty file", .multipart([file(part.name, Data())]), exercises: detect),
            with("a file with no name", .multipart([GeneratedPart(name: part.name, fileName: "", contentType: "image/png", data: SampleUploads.png)]),
                 exercises: partRequired),
            with("a JSON body", .raw("{\"photo\":\"x\"}", contentType: "application/json"), exercises: partRequired),
            with("no body", .none, exercises: partRequired),
            with("multipart without a boundary", .raw("--x\r\n", contentType: "multipart/form-data"), exercises: malformed),
        ]
        for (size, label, rules) in fileSizes(contract) where heavyFiles || size <= Self.heavyFileBytes {
            var request = with("a PNG of \(size) bytes (\(label))", .multipart([file(part.name, SampleUploads.png(size: size))]), exercises: rules)
            request.then = readsAfterWrite(slot: 0, photo: nil)
            cases.append(request)
        }
        return cases
    }

    /// File sizes one byte under, on and over every limit the contract states for the file (`request.maxFileBytes`, whose
    /// answer is `x-state.file.x-errors.maxFileBytes`, and the body limit), and one between each pair of neighbouring limits.
    func fileSizes(_ contract: Contract) -> [(size: Int, label: String, rules: [String])] {
        var limits: [(bytes: Int, rule: String)] = []
        if let bytes = contract.request.maxFileBytes { limits.append((bytes, StatedRule.id(contract.id, "/request", "maxFileBytes"))) }
        if let bytes = contract.request.maxBodyBytes { limits.append((bytes, StatedRule.id(contract.id, "/request", "maxBodyBytes"))) }
        limits.sort { $0.bytes < $1.bytes }
        var sizes: [(Int, String, [String])] = []
        for (index, limit) in limits.enumerated() {
            // A file counts for the limits it reaches (a limit itself may already be refused, as multer's is).
            func reached(_ size: Int) -> [String] { limits.filter { size >= $0.bytes }.map(\.rule) }
            if index > 0, limit.bytes - limits[index - 1].bytes > 2 {
                let size = (limits[index - 1].bytes + limit.bytes) / 2
                sizes.append((size, "between two limits", reached(size)))
            }
            for (offset, side) in [(-1, "one byte under a limit"), (0, "exactly a limit"), (1, "one byte over a limit")] {
                let size = limit.bytes + offset
                if size > 0, !sizes.contains(where: { $0.0 == size }) { sizes.append((size, side, reached(size))) }
            }
        }
        return sizes
    }

    /// The reads that show a write's effect on slot `slot`: the record, its file when the extension is known
    /// (`photo`), and the list.
    func readsAfterWrite(slot: Int, photo: String?) -> [GeneratedRequest] {
        var reads: [GeneratedRequest] = []
        if let read = contracts.contracts.first(where: { $0.method == "GET" && $0.pathTemplate.hasSuffix("{id}") }) {
            reads.append(GeneratedRequest(contractID: read.id, method: "GET", path: read.pathTemplate.replacingOccurrences(of: "{id}", with: "{slot\(slot)}"),
                                          label: "a read after the write"))
        }
        if let photo, let image = contracts.contracts.first(where: { $0.method == "GET" && $0.pathTemplate.contains("{file}") }) {
            reads.append(GeneratedRequest(contractID: image.id, method: "GET", path: image.pathTemplate.replacingOccurrences(of: "{file}", with: "{slot\(slot)}.\(photo)"),
                                          label: "the file after the write"))
        }
        if let list = listContract {
            reads.append(GeneratedRequest(contractID: list.id, method: "GET", path: list.pathTemplate, label: "the list after the write",
                                          exercises: [StatedRule.id(list.id, "/x-state", "where")]))
        }
        return reads
    }

    /// The contract that lists the records: a GET with query parameters and no path parameter.
    var listContract: Contract? {
        contracts.contracts.first { $0.method == "GET" && !$0.request.query.isEmpty && !$0.pathTemplate.contains("{") }
    }
}
