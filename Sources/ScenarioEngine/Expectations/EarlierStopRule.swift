/// The seeds' word on an app that stops the user before the step a scenario reaches (`stoppedAt`): seed 000 stops a
/// report without a photo at step 2; seed 004 lets a report without a location through step 3.
enum EarlierStopRule {
    /// What the seeds say about one stop.
    enum Verdict: Equatable {
        /// The seeds allow the stop; the sentence names the reading for the report.
        case allowed(reading: String)
        /// The seeds contradict the stop; the sentence says which seed lines.
        case contradicted(explanation: String)
    }

    /// Judges `stop` for a scenario whose report is `report`.
    static func judge(_ stop: EarlierStop, report: ReportData) -> Verdict {
        let said = "the app stopped the user at step \(stop.step) with \(ExpectationChecker.quote(stop.message))"
        if stop.step == 2, report.photo == nil {
            return .allowed(reading: "\(said) because the report has no photo, as seed 000 allows (the \"Photo is mandatory\" toast); the later steps do not apply and were not run")
        }
        let noLocation = report.fields["locationLatitude"] == nil && report.fields["locationLongitude"] == nil
        if stop.step == 3, noLocation {
            return .contradicted(explanation: "\(said) because the report has no location, but seed 004 lets the user clear both coordinates (FR-010) and leave them blank when location is denied (Edge Cases), so a report without a location must reach step 4")
        }
        let missing = report.photo == nil ? "only the photo is missing, which stops step 2" : "nothing the seeds require there is missing"
        return .contradicted(explanation: "\(said), but the report is complete for step \(stop.step) (\(missing))")
    }
}
