import ContractKit
import ContractModel

/// Seed 002 (Pet Details) made executable for a stored announcement: the values the details screen must present, and
/// the error state with unlimited retry. The steps it writes are judged by the scenario engine's `details` expectation,
/// the same check the bundled `details-*.json` scenarios use.
public enum DetailsModel {
    /// Seed 002 User Story 1 scenario 3: the error text of a failed load.
    public static let errorMessage = "Unable to load pet details"
    /// Seed 002 Edge Cases: shown for an absent breed, age, microchip or description.
    public static let dash = "—"
    /// How many Retry taps a generated reader makes at most (retry is unlimited; this bounds the session).
    public static let maxRetries = 4

    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The accepted presented values of `pet` by name (the names docs/client-protocol.md gives).
    public static func presentation(of pet: StoredPet) -> [String: [String]] {
        // FR-003 and Edge Cases: ACTIVE → "MISSING"; red for MISSING, blue for FOUND, gray for CLOSED.
        let (status, color): (String, String) = switch pet.status {
        case "FOUND": ("FOUND", "blue")
        case "CLOSED": ("CLOSED", "gray")
        default: ("MISSING", "red")
        }
        var p: [String: [String]] = ["status": [status], "statusColor": [color], "lastSeenDate": dates(pet.lastSeenDate)]
        // FR-004, User Story 5: the reward as-is, no badge without one ("(none)" in the protocol).
        p["reward"] = [pet.reward ?? "(none)"]
        // FR-007: "000-000-000-000", groups of three digits.
        p["microchipNumber"] = [pet.microchipNumber.map(groups) ?? dash]
        p["breed"] = [pet.breed ?? dash]
        p["description"] = [pet.description ?? dash]
        // "Approximate age": the wording is free, so the forms the bundled scenarios accept.
        p["age"] = pet.age.map { n in ["\(n) years", "\(n) years old", "\(n) yrs", "\(n)", "~\(n) years"] } ?? [dash]
        // FR-010: the sex with its symbol, with or without a word.
        p["sex"] = pet.sex == "MALE" ? ["♂ Male", "♂", "♂ MALE", "Male ♂", "MALE ♂"] : ["♀ Female", "♀", "♀ FEMALE", "Female ♀", "FEMALE ♀"]
        // Edge Cases: only the available contact method is shown.
        p["phone"] = [pet.phone ?? "(none)"]
        p["email"] = [pet.email ?? "(none)"]
        p["photo"] = [pet.hasPhoto ? "image" : "Image not available"]
        return p
    }

    /// FR-005's "MMM DD, YYYY" with the example "Nov 18, 2025": the calendar year, a single-digit day padded or not.
    static func dates(_ iso: String) -> [String] {
        let parts = iso.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3, (1...12).contains(parts[1]) else { return [iso] }
        let month = months[parts[1] - 1]
        let plain = "\(month) \(parts[2]), \(parts[0])"
        return parts[2] < 10 ? [plain, "\(month) 0\(parts[2]), \(parts[0])"] : [plain]
    }

    static func groups(_ digits: String) -> String {
        let chars = Array(digits)
        return stride(from: 0, to: chars.count, by: 3).map { String(chars[$0..<min($0 + 3, chars.count)]) }.joined(separator: "-")
    }

    /// The steps of opening `pet`'s details when its calls of `read` (the flow's read contract) from `firstCall` on fail as `failing` says:
    /// the error with retry after each failure (User Story 1 scenario 3, unlimited retry), then the presentation.
    /// Returns the steps and how many calls they made.
    static func steps(for pet: StoredPet, read: String, firstCall: Int, failing: (Int) -> Bool) -> (steps: [ModelledStep], calls: Int) {
        var steps: [ModelledStep] = []
        var call = firstCall
        for attempt in 0...maxRetries {
            let action: JSONValue = attempt == 0 ? "loadDetails" : "retryDetails"
            var document: JSONObject = ["action": action]
            if attempt == 0 { document["id"] = .string(pet.id) }
            if failing(call), attempt < maxRetries {
                let rules: [ModelRule] = [.detailsLoadError]
                document["expect"] = ["outcome": "failure", "details": ["state": "error", "message": .string(errorMessage)],
                                      "journal": ["calls": .object(JSONObject([(read, 1)]))], "because": .string(SeedModel.because(rules))]
                steps.append(ModelledStep(document: .object(document), kind: .read, rules: rules))
                call += 1
                continue
            }
            if failing(call) { break }
            let rules: [ModelRule] = [.detailsPresentation]
            let shown = JSONObject(presentation(of: pet).sorted { $0.key < $1.key }.map { key, values in
                (key, values.count == 1 ? .string(values[0]) : .array(values.map { .string($0) }))
            })
            document["expect"] = ["outcome": "success", "details": ["state": "loaded", "presentation": .object(shown)],
                                  "journal": ["calls": .object(JSONObject([(read, 1)]))], "because": .string(SeedModel.because(rules))]
            steps.append(ModelledStep(document: .object(document), kind: .read, rules: rules))
            return (steps, call - firstCall + 1)
        }
        return (steps, call - firstCall)
    }
}
