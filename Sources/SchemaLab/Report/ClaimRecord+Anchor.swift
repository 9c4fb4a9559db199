/// Where a claim sits in its scenario's report. The report owns its anchors, so the claims
/// themselves need not know the report (Claims sits below Report).
extension ClaimRecord {
    /// The anchor of the claim in its scenario's report: `claim~compound-sections`.
    package var anchor: String { ReportDocument.anchorID(["claim", id]) }
}
