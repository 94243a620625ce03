import ContractKit
import Foundation

/// The cross-request rules no single schema states, checked from what the traffic itself showed:
/// a created announcement has a UUID id, a 6-digit password and no photo; the Basic user is the created id (and the
/// server takes exactly the password it handed out); after an upload `photoUrl` is `/images/<id>.<ext>`, before it null;
/// the password is never read back.
final class ExchangeInvariants: Sendable {
    private struct Created {
        var password: String?
        var hasPhoto = false
    }

    private struct State {
        var created: [String: Created] = [:]
        var order: [String] = []
    }

    /// The most announcements remembered; a long run forgets the oldest first.
    static let memoryLimit = 10_000

    private let state = Locked(State())

    /// Forgets these announcements, or every one when nil.
    func forget(_ ids: [String]?) {
        guard let ids else { return state.withLock { $0 = State() } }
        let gone = Set(ids)
        state.withLock { s in
            for id in gone { s.created[id] = nil }
            s.order.removeAll { gone.contains($0) }
        }
    }

    func check(_ exchange: Exchange, match: ContractMatch, status: Int, body: JSONValue?) -> [ExchangeViolation] {
        let contract = match.contract
        let success = (200..<300).contains(status)
        var found: [ExchangeViolation] = []
        func server(_ pointer: String, _ expected: String, _ got: String) {
            found.append(ExchangeViolation(contract: contract.id, pointer: pointer, expected: expected, got: got, side: .server))
        }
        let id = match.parameters["id"]
        if let auth = contract.request.auth, auth.scheme == "basic", let id,
           let user = basicAuthUser(exchange.requestHeader(auth.header)), user != id {
            found.append(ExchangeViolation(contract: contract.id, pointer: "header:\(auth.header)",
                                           expected: "the announcement id \(id) as the Basic user (invariant: auth user = created id)",
                                           got: "user \"\(ViolationText.cut(user))\"", side: .client))
        }
        switch contract.id {
        case "createAnnouncement" where success:
            guard let body else { break }
            let newID = body["id"]?.stringValue
            if newID.flatMap(UUID.init(uuidString:)) == nil {
                server("/id", "a UUID (invariant: created id)", ViolationText.describe(body["id"]))
            }
            let password = body["managementPassword"]?.stringValue
            if password.map({ $0.count == 6 && $0.utf8.allSatisfy { (48...57).contains($0) } }) != true {
                server("/managementPassword", "6 digits (invariant: management password)", ViolationText.describe(body["managementPassword"]))
            }
            if let photo = body["photoUrl"], !photo.isNull {
                server("/photoUrl", "null at creation (invariant: photoUrl null until upload)", ViolationText.describe(photo))
            }
            if let newID { remember(newID, password: password) }
        case "uploadPhoto":
            guard let id else { break }
            let known = state.withLock { $0.created[id] }
            let sent = Self.basicPassword(exchange.requestHeader("authorization"))
            if let known, let password = known.password, let sent {
                if sent == password && status == 403 {
                    server("status", "201 for the password the create answer handed out (invariant: auth = created credentials)", "403")
                } else if sent != password && success {
                    server("status", "403 for a password other than the one handed out", "\(status)")
                }
            }
            if success { state.withLock { $0.created[id, default: Created()].hasPhoto = true } }
        case "deleteAnnouncement" where success:
            if let id { state.withLock { $0.created[id] = nil } }
        case "getAnnouncement" where success:
            if let object = body?.objectValue { found += readBack(object, pointer: "", contract: contract.id) }
        case "listAnnouncements" where success:
            for (index, item) in (body?["data"]?.arrayValue ?? []).enumerated() {
                if let object = item.objectValue { found += readBack(object, pointer: "/data/\(index)", contract: contract.id) }
            }
        default:
            break
        }
        return found
    }

    /// The read-back rules for one announcement object.
    private func readBack(_ object: JSONObject, pointer: String, contract: String) -> [ExchangeViolation] {
        var found: [ExchangeViolation] = []
        if object["managementPassword"] != nil {
            found.append(ExchangeViolation(contract: contract, pointer: pointer + "/managementPassword",
                                           expected: "absent (invariant: the password is never read back)", got: "present", side: .server))
        }
        guard let id = object["id"]?.stringValue, let known = state.withLock({ $0.created[id] }) else { return found }
        let photo = object["photoUrl"]
        if known.hasPhoto {
            let url = photo?.stringValue ?? ""
            let prefix = "/images/\(id)."
            if !(url.hasPrefix(prefix) && url.count > prefix.count && !url.dropFirst(prefix.count).contains("/")) {
                found.append(ExchangeViolation(contract: contract, pointer: pointer + "/photoUrl",
                                               expected: "/images/\(id).<ext> after the upload (invariant: photoUrl)",
                                               got: ViolationText.describe(photo), side: .server))
            }
        } else if let photo, !photo.isNull {
            found.append(ExchangeViolation(contract: contract, pointer: pointer + "/photoUrl",
                                           expected: "null before any upload (invariant: photoUrl)", got: ViolationText.describe(photo), side: .server))
        }
        return found
    }

    private func remember(_ id: String, password: String?) {
        state.withLock { s in
            if s.created[id] == nil { s.order.append(id) }
            s.created[id] = Created(password: password)
            if s.order.count > Self.memoryLimit {
                let dropped = s.order.count - Self.memoryLimit / 2
                for old in s.order.prefix(dropped) { s.created[old] = nil }
                s.order.removeFirst(dropped)
            }
        }
    }

    /// The password part of Basic credentials.
    static func basicPassword(_ header: String?) -> String? {
        guard let header else { return nil }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "basic",
              let data = Data(base64Encoded: String(parts[1]).trimmingCharacters(in: .whitespaces)),
              let text = String(data: data, encoding: .utf8), let colon = text.firstIndex(of: ":") else { return nil }
        return String(text[text.index(after: colon)...])
    }
}
