import ContractKit
import ContractModel
import Foundation

/// A walk `verify` found, saved so it replays (`verify --save-walks DIR`, then `verify --replay-walk FILE`): its
/// steps in order, the seed of the run that found it, and how the model and the server answered its last step.
///
/// The steps name records by the step that created them, so the file means the same on any server: the ids, secrets and
/// unique values are made afresh when it replays.
public struct WalkCase: Sendable, Equatable {
    /// The `spotcheckWalk` value files of this layout carry.
    public static let formatVersion = 1

    /// The contract id of the step that differs (the last one).
    public var route: String
    /// The seed of the run that found the walk.
    public var seed: UInt64
    /// How the model answered the last step when it was found.
    public var model: String
    /// How the server answered it.
    public var server: String
    /// The steps, the last one differing.
    var steps: [WalkStep]

    init(route: String, seed: UInt64, model: String, server: String, steps: [WalkStep]) {
        self.route = route
        self.seed = seed
        self.model = model
        self.server = server
        self.steps = steps
    }

    /// The steps as a report shows them.
    public var stepLines: [String] { steps.map(\.display) }

    /// A file name for the walk: its route and a number, e.g. `walk-createAnnouncement-2.json`.
    public func fileName(number: Int) -> String {
        let safe = String(route.unicodeScalars.map { CharacterSet.alphanumerics.contains($0) && $0.isASCII ? Character($0) : "-" })
        return "walk-\(safe)-\(number).json"
    }

    /// The file's JSON, indented, keys in a fixed order.
    public func encoded() -> Data {
        var object: JSONObject = [:]
        object["spotcheckWalk"] = .number(Double(Self.formatVersion))
        object["route"] = .string(route)
        // As text: a seed can pass 2^53, where a JSON number loses digits.
        object["seed"] = .string(String(seed))
        object["model"] = .string(model)
        object["server"] = .string(server)
        object["steps"] = .array(steps.map { .object($0.jsonObject) })
        var data = JSONValue.object(object).data(pretty: true)
        data.append(0x0A)
        return data
    }

    /// Reads a walk file; every problem names the file and the JSON pointer.
    public static func parse(_ data: Data, file: String) throws(WalkCaseError) -> WalkCase {
        let json: JSONValue
        do {
            json = try JSONValue(parsing: data)
        } catch {
            throw WalkCaseError(file: file, pointer: "", message: "is not JSON: \(error)")
        }
        guard let object = json.objectValue else { throw WalkCaseError(file: file, pointer: "", message: "expected a JSON object") }
        guard object["spotcheckWalk"]?.intValue == formatVersion else {
            throw WalkCaseError(file: file, pointer: "/spotcheckWalk", message: "expected \(formatVersion) (a walk saved by `spotcheck verify --save-walks`)")
        }
        func text(_ key: String) throws(WalkCaseError) -> String {
            guard let value = object[key]?.stringValue else { throw WalkCaseError(file: file, pointer: "/\(key)", message: "expected a string") }
            return value
        }
        guard let seed = UInt64(try text("seed")) else {
            throw WalkCaseError(file: file, pointer: "/seed", message: "expected a whole number from 0 to \(UInt64.max), as text")
        }
        guard let items = object["steps"]?.arrayValue, !items.isEmpty else {
            throw WalkCaseError(file: file, pointer: "/steps", message: "expected a non-empty array of steps")
        }
        var steps: [WalkStep] = []
        for (index, item) in items.enumerated() {
            do {
                steps.append(try WalkStep(json: item, earlier: steps.map(\.name)))
            } catch {
                throw WalkCaseError(file: file, pointer: "/steps/\(index)\(error.pointer)", message: error.message)
            }
        }
        return WalkCase(route: try text("route"), seed: seed, model: try text("model"), server: try text("server"), steps: steps)
    }
}

/// A walk file that cannot be read: the file, the JSON pointer and what was expected there.
public struct WalkCaseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file as given.
    public var file: String
    /// Where in it ("" for the whole document).
    public var pointer: String
    /// What is wrong.
    public var message: String

    public var description: String { "\(file)\(pointer.isEmpty ? "" : " at \(pointer)"): \(message)" }
}

/// A step of a walk file that cannot be read: where inside the step, and what was expected.
struct WalkStepFormatError: Error {
    var pointer: String
    var message: String
}

extension WalkStep {
    /// The step as a walk file holds it: `{"step": 3, "do": "attach", "contract": "uploadPhoto", "record": 1, "secretOf": 0}`.
    var jsonObject: JSONObject {
        var object: JSONObject = [:]
        object["step"] = .number(Double(name))
        object["contract"] = .string(contractID)
        switch kind {
        case .create(.fresh):
            object["do"] = "create"
        case .create(.reuse(let record, let upperCase)):
            object["do"] = "create"
            object["reuse"] = .number(Double(record))
            if upperCase { object["upperCase"] = true }
        case .read(let record):
            object["do"] = "read"
            object["record"] = .number(Double(record))
        case .delete(let record):
            object["do"] = "delete"
            object["record"] = .number(Double(record))
        case .attach(let record, let secretOf):
            object["do"] = "attach"
            object["record"] = .number(Double(record))
            object["secretOf"] = .number(Double(secretOf))
        case .list:
            object["do"] = "list"
        case .authenticate(let record, let presentation):
            object["do"] = "authenticate"
            object["record"] = .number(Double(record))
            object["presentation"] = .string(presentation.rawValue)
        }
        return object
    }

    /// Reads a step; `earlier` holds the numbers of the steps before it, which its own must differ from. A record no
    /// earlier step created is allowed: the step then meets a record nobody holds, as in a shrunk walk.
    init(json: JSONValue, earlier: [Int]) throws(WalkStepFormatError) {
        guard let object = json.objectValue else { throw WalkStepFormatError(pointer: "", message: "expected a step object") }
        guard let name = object["step"]?.intValue, name >= 0 else {
            throw WalkStepFormatError(pointer: "/step", message: "expected the step's number (0 or more)")
        }
        guard !earlier.contains(name) else {
            throw WalkStepFormatError(pointer: "/step", message: "step \(name) appears twice; each step has its own number")
        }
        guard let contractID = object["contract"]?.stringValue, !contractID.isEmpty else {
            throw WalkStepFormatError(pointer: "/contract", message: "expected the contract id the step sends")
        }
        func record(_ key: String) throws(WalkStepFormatError) -> Int {
            guard let value = object[key]?.intValue, value >= 0 else {
                throw WalkStepFormatError(pointer: "/\(key)", message: "expected the number of the step that created the record")
            }
            return value
        }
        let kind: Kind
        switch object["do"]?.stringValue {
        case "create":
            if object["reuse"] != nil {
                kind = .create(.reuse(record: try record("reuse"), upperCase: object["upperCase"]?.boolValue ?? false))
            } else {
                kind = .create(.fresh)
            }
        case "read": kind = .read(record: try record("record"))
        case "delete": kind = .delete(record: try record("record"))
        case "attach": kind = .attach(record: try record("record"), secretOf: try record("secretOf"))
        case "list": kind = .list
        case "authenticate":
            let text = object["presentation"]?.stringValue ?? Presentation.asSent.rawValue
            guard let presentation = Presentation(rawValue: text) else {
                throw WalkStepFormatError(pointer: "/presentation", message: "expected one of "
                    + Presentation.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", "))
            }
            kind = .authenticate(record: try record("record"), presentation)
        default:
            throw WalkStepFormatError(pointer: "/do", message: "expected create, read, delete, attach, list or authenticate")
        }
        self.init(contractID: contractID, kind: kind, name: name)
    }
}
