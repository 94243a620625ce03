extension StateGenerator {
    /// How `value`, made by a server with this generator, differs from what the generator states; nil when it is such a
    /// value. The one check of generated values: `verify`'s examples and exploration, the proxy and the mock's check of
    /// its own answers all ask it.
    public func problem(with value: JSONValue, context: GeneratedValueContext) -> GeneratedValueProblem? {
        switch self {
        case .uuidV4: return UUIDv4Check.problem(value)
        case .digits6: return Digits6Check.problem(value)
        case .nowISOMilliseconds: return NowISOMillisecondsCheck.problem(value, context: context)
        case .jwtHS256: return JWTHS256Check.problem(value, context: context)
        }
    }

    /// Whether `value` has the form this generator makes, leaving out what depends on the moment (closeness to the
    /// server's clock): what two answers made at different times still share.
    public func hasForm(_ value: JSONValue, context: GeneratedValueContext) -> Bool {
        var timeless = context
        timeless.tolerance = .greatestFiniteMagnitude
        return problem(with: value, context: timeless) == nil
    }
}
