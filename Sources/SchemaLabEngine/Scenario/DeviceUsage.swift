/// What an app's own log says a workload cost on the device (a workload's `device`:
/// `{"runs": 412, "rows": 8240, "seconds": 1.9}`): how many times it ran, the rows it returned
/// in all and the seconds it took in all. A reference for reading the lab's figures beside
/// the app's; the lab never uses it as a measurement.
public struct DeviceUsage: Sendable, Equatable {
    /// `runs`: how many times the workload ran on the device (at least 1).
    public var runs: Int
    /// `rows`: the rows it returned in all its runs; nil when the log does not say.
    public var rows: Int?
    /// `seconds`: the time it took in all its runs; nil when the log does not say.
    public var seconds: Double?

    /// The usage of `runs` runs, with the rows and seconds the log gives.
    public init(runs: Int, rows: Int? = nil, seconds: Double? = nil) {
        self.runs = runs
        self.rows = rows
        self.seconds = seconds
    }
}
