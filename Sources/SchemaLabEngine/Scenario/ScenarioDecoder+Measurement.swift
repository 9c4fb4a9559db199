import SchemaLabCoreData

extension ScenarioDecoder {
    static func decodeMeasurement(_ n: JSONNode) throws -> MeasurementSpec {
        try decodeMeasurement(n, over: MeasurementSpec())
    }

    /// A measurement object whose missing keys keep `base`'s values (a workload's override).
    static func decodeMeasurement(_ n: JSONNode, over base: MeasurementSpec) throws -> MeasurementSpec {
        let o = try n.object(allowed: ["warmup", "repetitions", "maxSeconds", "timeout"])
        var m = base
        if let w = o.optional("warmup") { m.warmup = try w.int(in: 0...100) }
        if let r = o.optional("repetitions") { m.repetitions = try r.int(in: 1...10_000) }
        if let s = o.optional("maxSeconds") {
            m.maxSeconds = try s.double()
            guard m.maxSeconds > 0 else { throw s.error("maxSeconds must be greater than 0") }
        }
        if let t = o.optional("timeout") {
            let seconds = try t.double()
            guard seconds > 0 else { throw t.error("timeout must be greater than 0") }
            m.timeout = seconds
        }
        return m
    }

    /// The pragmas a scenario may set, with the values each accepts (nil: any integer).
    static let allowedPragmas: [String: [String]?] = [
        "journal_mode": ["delete", "truncate", "persist", "memory", "wal", "off"],
        "synchronous": ["off", "normal", "full", "extra"],
        "cache_size": nil,
        "mmap_size": nil,
        "temp_store": ["default", "file", "memory"],
        "page_size": nil,
        "auto_vacuum": ["none", "full", "incremental"],
        "locking_mode": ["normal", "exclusive"],
    ]

    static func decodePragmas(_ n: JSONNode) throws -> [Pragma] {
        let names = allowedPragmas.keys.sorted()
        let o = try n.object(allowed: names)
        return try names.compactMap { name -> Pragma? in
            guard let v = o.optional(name) else { return nil }
            if let words = allowedPragmas[name]! {
                return Pragma(name: name, value: try v.choice(words))
            }
            return Pragma(name: name, value: String(try v.int()))
        }
    }
}
