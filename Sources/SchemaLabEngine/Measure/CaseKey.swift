/// One case of a run: a variant, a workload and a data set size.
public struct CaseKey: Hashable, Codable, Sendable, CustomStringConvertible {
    public let variant: String
    public let workload: String
    public let size: Int

    public init(variant: String, workload: String, size: Int) {
        self.variant = variant
        self.workload = workload
        self.size = size
    }

    /// `V1 fetch-sorted n=10000`, as progress lines print a case.
    public var description: String { "\(variant) \(workload) n=\(size)" }
}
