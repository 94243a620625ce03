/// Bodies of an answer whose status is the only promise the seeds make (issue 43, point 3): the upload's 201 (001 FR-003
/// step 2 asks for the status; petspot-api sends `{}`). The backend handles the upload and stores the photo; only the
/// body the client receives changes, within the contract and beyond it, and the client must succeed on each.
public enum AnswerBodies {
    /// The upload's 201 bodies, each with its class name.
    public static let upload: [(name: String, body: String)] = [
        ("empty", ""),
        ("other keys", #"{"photoUrl":"/images/photo.jpeg","status":"stored"}"#),
        ("another order and types", #"{"z":true,"a":[1,2],"m":null}"#),
        ("not an object", "[]"),
    ]
}
