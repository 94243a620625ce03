/// The members of an answer a server made up with a named generator, and how each breaks what its generator states.
///
/// An answer carries freshly made values only where the contracts say the server makes them: the success answer of an
/// `x-state` that generates (`create`, `authenticate`, `attach-file`; a read answers values made long ago, a fixture's
/// included) and the pointers of a response's `x-generate` (`health`'s timestamp).
public enum GeneratedMembers {
    /// Body pointer → generator for the answer with `status` to `contract`.
    public static func of(_ contract: Contract, in contracts: ContractSet, status: Int) -> [(pointer: String, generator: StateGenerator)] {
        var members: [(pointer: String, generator: StateGenerator)] = []
        if (200..<300).contains(status), let declaration = contracts.state.declaration(for: contract.id),
           [.create, .authenticate, .attachFile].contains(declaration.action) {
            members += declaration.generate.map { (JSONPointer.appending("", $0.field), $0.generator) }
        }
        if let response = contract.response(status: status) {
            for (pointer, name) in ExampleResponder.generated(contract: contract, response: response) {
                if let generator = StateGenerator(rawValue: name), !members.contains(where: { $0.pointer == pointer }) {
                    members.append((pointer, generator))
                }
            }
        }
        return members
    }

    /// Every generated member of `body` (the answer with `status` to `contract`) that breaks its generator. `context`
    /// brings the server's time; its record and token are filled in here (the object a member sits in, the contract's
    /// token declaration). An absent member is left to the response schema.
    public static func problems(in body: JSONValue, contract: Contract, contracts: ContractSet, status: Int,
                                context: GeneratedValueContext) -> [(pointer: String, problem: GeneratedValueProblem)] {
        var found: [(pointer: String, problem: GeneratedValueProblem)] = []
        let token = contracts.state.declaration(for: contract.id)?.token.map(contracts.deploymentSecrets.resolving)
        for (pointer, generator) in of(contract, in: contracts, status: status) {
            guard let value = JSONPointer.resolve(pointer, in: body) else { continue }
            var local = context
            local.token = token
            local.record = JSONPointer.resolve(String(pointer[..<(pointer.lastIndex(of: "/") ?? pointer.startIndex)]), in: body)?.objectValue ?? JSONObject()
            if let problem = generator.problem(with: value, context: local) { found.append((pointer, problem)) }
        }
        return found
    }
}
