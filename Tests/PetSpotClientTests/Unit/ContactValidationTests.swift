import Testing
@testable import PetSpotClient

@Suite struct ContactValidationTests {
    @Test(arguments: [
        ("123456", false),            // 6 digits
        ("1234567", true),            // 7 digits
        ("12345678901", true),        // 11 digits
        ("123456789012", false),      // 12 digits
        ("+48123456789", true),       // leading + with 11 digits
        ("+4812345678901", false),    // leading + with 13 digits
        ("+123456", false),           // leading + with 6 digits
        ("123-456-7", true),          // dashes ignored
        ("123 456 78", true),         // spaces ignored
        ("+48 123-456-789", true),    // mixed formatting
        ("  1234567  ", true),        // surrounding whitespace
        ("123456a", false),           // a letter
        ("12345678a", false),         // a letter with enough digits
        ("48+1234567", false),        // + not leading
        ("++1234567", false),         // double +
        ("(123) 4567", false),        // other symbols
        ("123.456.789", false),
        ("", false),
        ("+", false),
        ("- - -", false),
        ("１２３４５６７", false),      // full-width digits are not ASCII digits
    ])
    func phone(_ input: String, _ valid: Bool) {
        #expect(ContactValidation.isValidPhone(input) == valid, "phone \"\(input)\"")
    }

    @Test(arguments: [
        ("owner@example.com", true),
        ("OWNER@EXAMPLE.COM", true),
        ("Owner.Name+tag@Mail.Example.co", true),
        ("  owner@example.com  ", true),     // trimmed
        ("\towner@example.com\n", true),
        ("owner@example", false),            // no TLD
        ("owner@", false),
        ("@example.com", false),
        ("owner example@example.com", false), // space inside
        ("owner@exa mple.com", false),
        ("owner@@example.com", false),
        ("owner@example.c", false),          // one-letter TLD
        ("owner@example.c0m", false),        // digit in TLD
        ("owner@.example.com", false),
        ("owner@example..com", false),
        ("owner@-example.com", false),
        (".owner@example.com", false),
        ("ow..ner@example.com", false),
        ("owner@example.com.", false),
        ("", false),
    ])
    func email(_ input: String, _ valid: Bool) {
        #expect(ContactValidation.isValidEmail(input) == valid, "email \"\(input)\"")
    }

    @Test func messagesAreTheSeedsExactWords() {
        let problems = ContactValidation.problems(phone: "123", email: "owner@")
        #expect(problems == [
            DraftProblem(field: "phone", message: "Enter at least 7 digits"),
            DraftProblem(field: "email", message: "Enter a valid email address"),
        ])
        #expect(ContactValidation.problems(phone: "+48123456789", email: "owner@example.com").isEmpty)
    }
}
