/// Counts the instructions of one run of a case's timed region: what ``RunOptions/instructionCounter``
/// is given. ``CallgrindCounter`` is the lab's (valgrind in a child process); a test can
/// give one of its own.
public protocol InstructionCounting: Sendable {
    /// Why it cannot count on this machine, or nil when it can; asked before a run starts.
    func unavailable() -> String?
    /// The instructions of one run of `request`'s timed region.
    func count(_ request: CountRequest) throws -> InstructionCount
}

/// One case to count, as a child process needs it to run the case alone: the scenario's
/// file and the filled store are in ``workDirectory``, named relative to it, so that the
/// child's arguments have the same length wherever the lab runs (their length moves the
/// count, see ``CallgrindCounter``).
public struct CountRequest: Sendable, Equatable {
    /// The scenario file, relative to ``workDirectory``.
    public var scenarioFile = "scenario.json"
    /// The variant's name.
    public var variant: String
    /// The workload's name.
    public var workload: String
    /// The data set size: how many objects of the root entity.
    public var size: Int
    /// Warm-up runs before the counted one.
    public var warmup = 1
    /// The case's injected slowdown (a test aid), 1 for none.
    public var slowdown = 1.0
    /// The variant's filled store for the size, relative to ``workDirectory``; nil when the
    /// case starts from an empty store.
    public var filledStore: String?
    /// The directory the counting process runs in, where it keeps the case's own stores.
    public var workDirectory: String

    /// A request for one case with the defaults: `scenario.json`, one warm-up run, no
    /// slowdown, no filled store.
    public init(variant: String, workload: String, size: Int, workDirectory: String) {
        self.variant = variant
        self.workload = workload
        self.size = size
        self.workDirectory = workDirectory
    }

    /// The request as a child's arguments: `scenario.json --variant V --workload W --size N
    /// --work . --warmup 1 [--slowdown F] [--store FILE]` (the child runs in the work directory).
    public var arguments: [String] {
        var out = [
            scenarioFile, "--variant", variant, "--workload", workload, "--size", String(size), "--work", ".", "--warmup", String(warmup),
        ]
        if slowdown != 1 { out += ["--slowdown", String(slowdown)] }
        if let filledStore { out += ["--store", filledStore] }
        return out
    }

    /// The request ``arguments`` wrote, read back in the counting process; nil when the
    /// arguments are not a request.
    public init?(arguments: [String]) {
        guard let file = arguments.first, !file.hasPrefix("--") else { return nil }
        var values: [String: String] = [:]
        var rest = arguments.dropFirst()
        while let name = rest.first, name.hasPrefix("--"), rest.count >= 2 {
            values[String(name.dropFirst(2))] = rest.dropFirst().first
            rest = rest.dropFirst(2)
        }
        guard rest.isEmpty, let variant = values["variant"], let workload = values["workload"], let size = values["size"].flatMap(Int.init),
            let work = values["work"],
            Set(values.keys).isSubset(of: ["variant", "workload", "size", "work", "warmup", "slowdown", "store"])
        else { return nil }
        self.init(variant: variant, workload: workload, size: size, workDirectory: work)
        scenarioFile = file
        if let warmup = values["warmup"] {
            guard let value = Int(warmup), value >= 0 else { return nil }
            self.warmup = value
        }
        if let slowdown = values["slowdown"] {
            guard let value = Double(slowdown), value >= 1 else { return nil }
            self.slowdown = value
        }
        filledStore = values["store"]
    }
}
