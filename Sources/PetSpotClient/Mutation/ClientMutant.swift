import Foundation

/// One deliberate single bug of the reference client, for the mutation benchmark (bench/mutants/, issue 43).
///
/// Every case is off unless ``activate(_:)`` switched it on; only `spotcheck-client` does that (from `SPOTCHECK_MUTANT`),
/// so the in-process reference client never carries a mutant. Cases named `sc-…` are seed-correct: they take the other
/// reading where two seed lines disagree, and a judge that flags one is wrong, not the client.
/// bench/mutants/catalogue.tsv describes each case (the input rule or answer kind it breaks and the seed line).
public enum ClientMutant: String, CaseIterable, Sendable {
    // Phone validation (001 FR-004, Assumptions "Phone validation").
    case phoneUntrimmed = "phone-untrimmed"
    case phoneTrimsSpacesOnly = "phone-trims-spaces-only"
    case phoneMin8Digits = "phone-min-8-digits"
    case phoneMax10Digits = "phone-max-10-digits"
    case phoneMax12Digits = "phone-max-12-digits"
    case phoneRejectsDashes = "phone-rejects-dashes"
    case phoneRejectsLeadingPlus = "phone-rejects-leading-plus"
    case phoneAcceptsLetters = "phone-accepts-letters"
    case scPhoneSanitized = "sc-phone-sanitized"
    // Email validation (001 FR-005, Edge Cases "Email validation").
    case emailUntrimmed = "email-untrimmed"
    case emailCaseSensitive = "email-case-sensitive"
    case emailAcceptsNoDot = "email-accepts-no-dot"
    case emailRejectsPlus = "email-rejects-plus"
    case emailAcceptsInnerSpace = "email-accepts-inner-space"
    case emailTLDMin3 = "email-tld-min-3"
    case emailMax253 = "email-max-253"
    case emailAcceptsEmptyLocal = "email-accepts-empty-local"
    case scEmailOneLetterTLD = "sc-email-one-letter-tld"
    case scEmailRejectsOver254 = "sc-email-rejects-over-254"
    case scValidationReturnsEarly = "sc-validation-returns-early"
    // The reward input (001 FR-006, Edge Cases "Reward truncation").
    case rewardTrimmedOnEntry = "reward-trimmed-on-entry"
    case rewardLimit119 = "reward-limit-119"
    case rewardLimit121 = "reward-limit-121"
    case rewardCountsUTF8Bytes = "reward-counts-utf8-bytes"
    case rewardDropsInnerNewline = "reward-drops-inner-newline"
    case scRewardCountsUTF16 = "sc-reward-counts-utf16"
    case scRewardCutAtLimit = "sc-reward-cut-at-limit"
    // The create body (001 FR-003 step 1, Key Entities "AnnouncementCreatePayload", FR-004 to FR-006).
    case sendsUntrimmedEmail = "sends-untrimmed-email"
    case sendsWhitespaceRewardAsNull = "sends-whitespace-reward-as-null"
    case trimsRewardInBody = "trims-reward-in-body"
    case phoneSentWithoutPlus = "phone-sent-without-plus"
    case phoneSentWithoutLeadingZeros = "phone-sent-without-leading-zeros"
    case microchipDropsLeadingZeros = "microchip-drops-leading-zeros"
    case microchipAllZerosOmitted = "microchip-all-zeros-omitted"
    case microchipSentGrouped = "microchip-sent-grouped"
    case latitudeZeroMissing = "latitude-zero-missing"
    case longitudeZeroMissing = "longitude-zero-missing"
    case negativeZeroMissing = "negative-zero-missing"
    case latitude90Rejected = "latitude-90-rejected"
    case longitude180Rejected = "longitude-180-rejected"
    case negativeLongitudeSentPositive = "negative-longitude-sent-positive"
    case coordinatesRounded = "coordinates-rounded"
    case femaleSentAsMale = "female-sent-as-male"
    case dateUnpadded = "date-unpadded"
    case scSpeciesUppercased = "sc-species-uppercased"
    case scEmailLowercasedInBody = "sc-email-lowercased-in-body"
    // The list query (petspot-api GET /api/v1/announcements).
    case listZeroCoordinateDropped = "list-zero-coordinate-dropped"
    case listRangeDropped = "list-range-dropped"
    // Ids the server hands out, in a path (petspot-api GET by id, POST photos).
    case detailsIdUnencoded = "details-id-unencoded"
    case photoPathIdUnencoded = "photo-path-id-unencoded"
    // Answers: a status-only promise (the upload's 201) and promised fields (the details' announcement).
    case uploadRequiresJSONBody = "upload-requires-json-body"
    case uploadRequiresEmptyObject = "upload-requires-empty-object"
    case uploadRequiresPhotoURL = "upload-requires-photo-url"
    case detailsAgeOutOfRangeFails = "details-age-out-of-range-fails"
    case detailsMicrochipCutAt12 = "details-microchip-cut-at-12"
    case detailsAgeZeroDash = "details-age-zero-dash"
    case detailsRewardTrimmed = "details-reward-trimmed"
    case detailsMicrochipLeadingZerosDropped = "details-microchip-leading-zeros-dropped"
    case detailsFoundShownRed = "details-found-shown-red"
    case detailsClosedShownMissing = "details-closed-shown-missing"

    /// Whether this is a seed-correct variant (another reading the seeds allow), not a bug.
    public var isSeedCorrect: Bool { rawValue.hasPrefix("sc-") }

    /// Switches `mutant` on for this process (`nil`: none). Called once by `spotcheck-client` before any request.
    public static func activate(_ mutant: ClientMutant?) {
        MutantSwitch.shared.set(mutant)
    }

    /// The mutant switched on in this process, if any.
    public static var active: ClientMutant? { MutantSwitch.shared.get() }

    /// Whether `self` is the mutant switched on.
    var isOn: Bool { MutantSwitch.shared.get() == self }
}
