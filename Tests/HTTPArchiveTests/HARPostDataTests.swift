import ContractKit
import Foundation
import Testing

@testable import HTTPArchive

/// A body kept only as `postData.params` (Proxyman and Charles do this for uploads) is rebuilt in the form it was sent.
@Suite struct HARPostDataTests {
    @Test func multipartParamsAreRebuiltAsPartsWithTheirFileNamesAndTypes() {
        let post = HARPostData(mimeType: "multipart/form-data; boundary=\"Boundary-7F2A\"", text: nil,
                               params: [HARPair(name: "photo", value: "", fileName: "photo.jpg", contentType: "image/jpeg"),
                                        HARPair(name: "note", value: "hi")])
        let text = String(decoding: post.bytes ?? [], as: UTF8.self)
        #expect(text == "--Boundary-7F2A\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"photo.jpg\"\r\nContent-Type: image/jpeg\r\n\r\n\r\n"
                + "--Boundary-7F2A\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\nhi\r\n--Boundary-7F2A--\r\n")
    }

    @Test func formParamsStayURLEncodedAndAMultipartWithoutBoundaryToo() {
        let form = HARPostData(mimeType: "application/x-www-form-urlencoded", text: nil, params: [HARPair(name: "a b", value: "c&d")])
        #expect(String(decoding: form.bytes ?? [], as: UTF8.self) == "a%20b=c%26d")
        let noBoundary = HARPostData(mimeType: "multipart/form-data", text: nil, params: [HARPair(name: "a", value: "b")])
        #expect(String(decoding: noBoundary.bytes ?? [], as: UTF8.self) == "a=b")
    }

    @Test func aFilePartsNameAndTypeSurviveAReadAndAWrite() throws {
        let har = #"{"log": {"version": "1.2", "creator": {"name": "Proxyman", "version": "5"}, "entries": [{"startedDateTime": "2026-11-25T10:12:03.520+01:00", "time": 1, "request": {"method": "POST", "url": "https://h/x", "httpVersion": "HTTP/2", "headers": [], "queryString": [], "headersSize": -1, "bodySize": 10, "postData": {"mimeType": "multipart/form-data; boundary=B", "params": [{"name": "photo", "fileName": "p.jpg", "contentType": "image/jpeg"}]}}, "response": {"status": 201, "statusText": "", "httpVersion": "HTTP/2", "headers": [], "content": {"size": 0, "mimeType": ""}, "redirectURL": "", "headersSize": -1, "bodySize": 0}, "cache": {}, "timings": {"send": 0, "wait": 0, "receive": 0}}]}}"#
        let log = try HARReader.read(Data(har.utf8), file: "p.har")
        let param = try #require(log.entries.first?.request.postData?.params.first)
        #expect(param == HARPair(name: "photo", value: "", fileName: "p.jpg", contentType: "image/jpeg"))
        let written = HARWriter.json(log.entries[0])
        #expect(written["request"]?["postData"]?["params"]?.arrayValue?.first?["fileName"] == "p.jpg")
    }
}
