/// One case of a run: a variant, a workload and a data set size.
public struct CaseKey: Hashable, Codable, Sendable, CustomStringConvertible {
    /// The variant's name.
    public let variant: String
    /// The workload's name.
    public let workload: String
    /// The data set size: how many objects of the root entity.
    public let size: Int

    /// The case of `variant` running `workload` on a data set of `size` objects.
    public init(variant: String, workload: String, size: Int) {
        self.variant = variant
        self.workload = workload
        self.size = size
    }

    /// `V1 fetch-sorted n=10000`, as progress lines print a case.
    public var description: String { "\(variant) \(workload) n=\(size)" }
}
