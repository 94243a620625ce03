import ContractKit
import ContractModel
import Foundation
import NIOCore

extension AdminAPI {
    /// One export holds at most this much HAR text; the rest is left for a follow-up request with `?since=`.
    static let harByteLimit = 32 * 1024 * 1024

    /// `GET journal.har?contract=&status=&failures=1&since=`: the kept journal, filtered, as a HAR 1.2 download; nil for other routes.
    func harRoute(_ route: String, _ request: MockRequest) -> MockResponse? {
        guard route == "journal.har" else { return nil }
        guard request.method == .GET else {
            var response = AdminAPI.error(.methodNotAllowed, "\(request.method.rawValue) is not allowed on \(request.path); use GET.")
            response.headers.add(name: "allow", value: "GET")
            return response
        }
        let query = AdminQuery(request.query)
        if let since = query["since"], Int(since) == nil {
            return AdminAPI.error(.badRequest, "since=\(since) is not a journal sequence number.")
        }
        let filter = JournalHARFilter(contract: query["contract"].flatMap { $0.isEmpty ? nil : $0 }, status: query["status"],
                                   failuresOnly: ["1", "true", "on"].contains(query["failures"] ?? ""), since: query.int("since"))
        let export = JournalHARExport.text(journal.entries(), filter: filter, origin: origin(of: request), byteLimit: AdminAPI.harByteLimit,
                                             secrets: harSecrets)
        var response = MockResponse(status: .ok, headers: ["content-type": "application/json"], body: ByteBuffer(string: export.text))
        response.headers.add(name: "content-disposition", value: "attachment; filename=\"spotcheck.har\"")
        if let next = export.continueAfter { response.headers.add(name: "x-spotcheck-har-continue-since", value: String(next)) }
        return response
    }

    /// `http://host:mainPort`, the address the app used, as the admin request's Host header names the machine.
    private func origin(of request: MockRequest) -> String {
        let host = request.headers.first(name: "host") ?? "127.0.0.1"
        let bare: Substring
        if host.hasPrefix("["), let close = host.firstIndex(of: "]") {
            bare = host[...close]
        } else {
            bare = host.split(separator: ":").first ?? "127.0.0.1"
        }
        return "http://\(bare)" + (mainPort().map { ":\($0)" } ?? "")
    }
}
