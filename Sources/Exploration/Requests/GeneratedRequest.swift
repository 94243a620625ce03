import ContractKit
import ContractModel
import Foundation

/// One generated request, written once and rendered for each side (target and model) with that side's ids and passwords.
public struct GeneratedRequest: Sendable, Equatable {
    /// What goes in the body.
    public enum Body: Sendable, Equatable {
        /// No body.
        case none
        /// A JSON object or value, sent as `application/json`.
        case json(JSONValue)
        /// Bytes sent as they are, with this Content-Type (none when nil).
        case raw(String, contentType: String?)
        /// A multipart/form-data body with these parts.
        case multipart([GeneratedPart])
    }

    /// Who the Authorization header claims to be.
    public enum Credentials: Sendable, Equatable {
        /// No Authorization header.
        case none
        /// `<scheme> base64(<announcement id>:<password>)` with the given slots, rendered per side; no password, no colon.
        case basic(scheme: String, id: IdentityValue, password: IdentityValue?)
        /// The header value as written (a scheme alone, raw text, a bad base64).
        case literal(String)
        /// The operator's admin token (`verify --admin-token`).
        case adminToken
    }

    /// A value that differs per side: one of the run's own announcements, or text sent as it is.
    public indirect enum IdentityValue: Sendable, Equatable {
        /// The id of the run's announcement in this slot (0 = the first one the run created).
        case id(slot: Int)
        /// The management password of the announcement in this slot.
        case password(slot: Int)
        /// This exact text on both sides.
        case text(String)
        /// Another value changed the way a client or a keyboard changes credentials.
        case changed(IdentityValue, IdentityChange)
    }

    /// How a credential is changed on its way (edge values: another letter case, spaces, length).
    public enum IdentityChange: Sendable, Equatable {
        /// In upper case.
        case upperCased
        /// With a space before and after.
        case padded
        /// With this text after it: a much longer value that shares the whole real one as its prefix.
        case extended(String)
    }

    /// The contract the request exercises; nil for a route the model serves beyond the contracts.
    public var contractID: String?
    /// The HTTP method.
    public var method: String
    /// The path; `{slot0}`, `{slot1}` become the run's announcement ids on each side, `{unknown}` an id no server holds.
    public var path: String
    /// Query parameters in order, sent as they are.
    public var query: [QueryItem]
    /// Extra headers.
    public var headers: [String: String]
    /// The body.
    public var body: Body
    /// The Authorization header.
    public var credentials: Credentials
    /// What this case varies, for reports (e.g. `email ""` and `phone "1"`).
    public var label: String
    /// The valid body the JSON variants start from, so a report can say what a request changed.
    public var baseBody: JSONObject?
    /// The keys the base body's schema requires (a report names only the optional keys a request keeps).
    public var requiredKeys: Set<String> = []
    /// Read the announcement back after a 201, so a stored value returned differently shows.
    public var readsBack: Bool
    /// The stated rules (`StatedRule.id`) this case exercises, for the coverage listing.
    public var exercises: [String] = []
    /// Send the unique fields' values as written (a walk chose them: fresh, or reused on purpose); otherwise each case
    /// gets its own (`FreshValues`).
    public var keepsUniqueValues = false
    /// Values the generator made fresh for this run itself (a walk's unique values), which a recorded baseline masks.
    public var freshValues: [String] = []
    /// Values an earlier request made fresh that this one sends again (a walk's login with the email it registered).
    /// A recorded baseline masks a short value only where a request made or carries it: the same short text sent as a
    /// literal elsewhere (`"m🐶"` as an invalid login email) is the request's own, and stays as sent.
    public var carriedValues: [String] = []
    /// Reads sent right after this request, in order, whatever it answered (a write's effect: the record, its file, the list).
    public var then: [GeneratedRequest] = []

    /// A request with no body, query or credentials.
    public init(contractID: String?, method: String, path: String, label: String, query: [QueryItem] = [], headers: [String: String] = [:],
                body: Body = .none, credentials: Credentials = .none, baseBody: JSONObject? = nil, readsBack: Bool = false,
                exercises: [String] = []) {
        self.contractID = contractID
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.credentials = credentials
        self.label = label
        self.baseBody = baseBody
        self.readsBack = readsBack
        self.exercises = exercises
    }

    /// The route this request belongs to, for grouping: the contract id or `METHOD path`.
    public var route: String { contractID ?? "\(method) \(path)" }
}

/// One query parameter, sent exactly as written (no further encoding beyond what a URL needs).
public struct QueryItem: Sendable, Equatable {
    /// The name.
    public var name: String
    /// The value.
    public var value: String

    /// `name=value`.
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// One part of a generated multipart body.
public struct GeneratedPart: Sendable, Equatable {
    /// The form field name.
    public var name: String
    /// The file name; nil makes a plain text field.
    public var fileName: String?
    /// The declared Content-Type of the part.
    public var contentType: String?
    /// The part's bytes.
    public var data: Data

    /// A part with these fields.
    public init(name: String, fileName: String?, contentType: String?, data: Data) {
        self.name = name
        self.fileName = fileName
        self.contentType = contentType
        self.data = data
    }
}
