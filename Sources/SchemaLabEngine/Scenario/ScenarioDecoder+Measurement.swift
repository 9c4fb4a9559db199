import SchemaLabCoreData

extension ScenarioDecoder {
    static func decodeMeasurement(_ n: JSONNode) throws -> MeasurementSpec {
        try decodeMeasurement(n, over: MeasurementSpec())
    }

    /// A measurement object whose missing keys keep `base`'s values (a workload's override).
    static func decodeMeasurement(_ n: JSONNode, over base: MeasurementSpec) throws -> MeasurementSpec {
        let o = try n.object(allowed: ScenarioKeys.measurement)
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

    static func decodePragmas(_ n: JSONNode) throws -> [Pragma] {
        let o = try n.object(allowed: ScenarioKeys.pragmas.map(\.name))
        return try ScenarioKeys.pragmas.compactMap { name, words -> Pragma? in
            guard let v = o.optional(name) else { return nil }
            if let words {
                return Pragma(name: name, value: try v.choice(words))
            }
            return Pragma(name: name, value: String(try v.int()))
        }
    }
}
