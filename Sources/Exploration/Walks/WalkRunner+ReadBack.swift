import ContractKit
import Foundation

/// Read after every write (issue 42, point 3): a walk step that created a record or changed one (attached a file) is
/// followed, on every side, by each read of that record and each list of its collection, plain and, where the list
/// declares a filter, centred on the record itself. They are compared like any other answer (every field, the order of
/// the run's own records, the headers), so a write that forgets a field, or a list sorted another way under a query,
/// differs at the step that wrote. The reads follow from the step alone, so a saved walk replays them. Their labels name
/// no step, so a difference keeps its signature while the walk before it shrinks.
extension WalkRunner {
    /// The reads that follow `step` when every side accepted it, or none.
    func readsAfter(_ step: WalkStep, record: WalkState.Record?) -> [GeneratedRequest] {
        guard let record, let slot = record.slot, !record.deleted,
              let collection = operations.collections.first(where: { $0.name == record.collection })
        else { return [] }
        switch step.kind {
        case .create, .attach: break
        default: return []
        }
        var reads: [GeneratedRequest] = []
        for id in collection.reads {
            guard let contract = contracts.contract(id: id), let parameter = contract.pathParameters.first?.name else { continue }
            var read = GeneratedRequest(contractID: id, method: contract.method,
                                        path: contract.pathTemplate.replacingOccurrences(of: "{\(parameter)}", with: "{slot\(slot)}"),
                                        label: "read the record back")
            read.keepsUniqueValues = true
            reads.append(read)
        }
        for id in collection.lists {
            guard let contract = contracts.contract(id: id) else { continue }
            var plain = GeneratedRequest(contractID: id, method: contract.method, path: contract.pathTemplate, label: "the list")
            plain.keepsUniqueValues = true
            reads.append(plain)
            if let query = centredQuery(on: record, list: id) {
                var centred = plain
                centred.query = query
                centred.label = "the list around the record"
                reads.append(centred)
            }
        }
        return reads
    }

    /// The query of a list's declared filter centred just north of `record`'s position (its filter fields as sent), with every
    /// other parameter the filter names at its stated default or minimum; nil when the list has no filter or the record
    /// no position.
    func centredQuery(on record: WalkState.Record, list id: String) -> [QueryItem]? {
        guard let contract = contracts.contract(id: id), let filter = contracts.state.declaration(for: id)?.list?.filter,
              let inputs = ListDeclaration.algorithms[filter.algorithm]
        else { return nil }
        var centre: [Double] = []
        for input in inputs.fields {
            guard let field = filter.fields[input], let value = record.body[field]?.numberValue else { return nil }
            centre.append(value)
        }
        // A little north of the record, not on it: at the exact point SQLite's law of cosines can round past 1 and leave
        // the record out on every side (NaN), so nothing would be read back.
        if centre.count == 2 {
            let moved = RequestGenerator.point(from: (centre[0], centre[1]), northKm: Self.centreOffsetKm)
            centre = [moved.latitude, moved.longitude]
        }
        var items: [QueryItem] = []
        // The algorithm's inputs in its own order: a centre near the record, the rest from the query's schema.
        for (index, input) in inputs.parameters.enumerated() {
            guard let name = filter.parameters[input] else { return nil }
            if index < centre.count {
                items.append(QueryItem(name, String(format: "%.6f", centre[index])))
            } else {
                let schema = contract.request.query.first { $0.name == name }?.schema
                guard let value = schema?["default"]?.numberValue ?? schema?["minimum"]?.numberValue ?? Optional(1) else { continue }
                items.append(QueryItem(name, Self.queryText(value)))
            }
        }
        return items
    }

    /// How far north of a record the list read back after a write is centred.
    static let centreOffsetKm = 0.1

    /// A number as a query carries it: whole numbers without a fraction, others as Swift writes a double (shortest exact).
    static func queryText(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    /// `observation` with the first read after it that differs folded in (its differences named after the read), or
    /// `observation` itself when every read answered as the model did.
    func readingBack(_ reads: [GeneratedRequest], after observation: CaseObservation, run: inout LockstepRun) async -> (CaseObservation, requests: Int) {
        var sent = 0
        var first: CaseObservation?
        for read in reads {
            let seen = await run.execute(read)
            sent += 1
            guard first == nil, !seen.differences.isEmpty, seen.knownDefect == nil else { continue }
            let name = "after the write, \(read.label): "
            let differences = seen.differences.map {
                AnswerDifference(aspect: name + $0.aspect, model: $0.model, server: $0.server, groupsByValue: $0.groupsByValue,
                                 bodyPointer: $0.bodyPointer, excusable: $0.excusable, readContractID: read.contractID,
                                 readStatus: seen.statuses.count == 3 ? seen.statuses[1] : nil, unstated: $0.unstated)
            }
            var folded = CaseObservation(request: observation.request, sent: observation.sent, serverSummary: observation.serverSummary,
                                         modelSummary: observation.modelSummary, differences: differences, knownDefect: nil,
                                         headersAdded: observation.headersAdded, headersRemoved: observation.headersRemoved)
            folded.statuses = observation.statuses
            folded.bodies = observation.bodies
            folded.verdict = seen.verdict
            folded.readBack = read
            // Following a recorded baseline, every read is still sent, so the recording and its replay stay in step.
            if !followsBaseline { return (folded, sent) }
            first = folded
        }
        return (first ?? observation, sent)
    }
}
