import SchemaLabCoreData

/// Measures one case from start to end (no interleaving): a ``CaseSession`` begun,
/// repeated while it wants more, finished.
public struct CaseRunner {
    public let measurement: MeasurementSpec

    public init(measurement: MeasurementSpec) { self.measurement = measurement }

    /// Runs `workload`. `makeStore` gives the store for one repetition (untimed): a
    /// fresh empty one for inserts, the filled one otherwise. `makeFloorStore` gives
    /// another fresh store of the same kind, for a write workload's floor and the raw baseline.
    public func run(
        scenario: String, variant: String, size: Int, workload: any Workload,
        makeStore: @escaping () throws -> Store, makeFloorStore: (() throws -> Store)? = nil
    ) throws -> CaseResult {
        let session = CaseSession(
            scenario: scenario, variant: variant, size: size, workload: workload, measurement: measurement,
            makeStore: makeStore, makeFloorStore: makeFloorStore)
        try session.begin()
        while session.wantsMore { try session.measureOne() }
        return try session.finish()
    }
}
