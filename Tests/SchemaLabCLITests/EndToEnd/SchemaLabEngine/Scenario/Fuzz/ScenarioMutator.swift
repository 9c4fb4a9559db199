import Foundation
@testable import SchemaLabEngine

/// Seeded mutations of a scenario document, stacked a few per document: every choice
/// comes from one ``SplitMix64`` stream, so a seed and a document number give the same
/// bytes on every run and a failure reproduces.
struct ScenarioMutator {
    var rng: SplitMix64
    /// What was done to the document, in order (printed with a failure).
    private(set) var log: [String] = []

    init(seed: UInt64) { rng = SplitMix64(seed: seed) }

    // MARK: Random choices

    mutating func below(_ n: Int) -> Int { n <= 1 ? 0 : Int(rng.next() % UInt64(n)) }
    mutating func chance(_ p: Double) -> Bool { rng.unit() < p }
    mutating func pick<T>(_ xs: [T]) -> T { xs[below(xs.count)] }

    // MARK: Whole documents

    /// `doc` with 1 to 4 tree mutations, printed, then now and then one byte-level mutation.
    mutating func mutate(_ doc: FuzzJSON) -> [UInt8] {
        var d = doc
        for _ in 0..<(1 + below(4)) { mutateTree(&d) }
        var bytes = Array(d.text.utf8)
        if chance(0.15) { mutateBytes(&bytes) }
        return bytes
    }

    mutating func mutateTree(_ d: inout FuzzJSON) {
        switch below(16) {
        case 0, 1: dropKey(&d)
        case 2: changeType(&d)
        case 3, 4: numberEdge(&d)
        case 5: deepNesting(&d)
        case 6, 7: nameEdge(&d)
        case 8: duplicateElement(&d)
        case 9: duplicateKey(&d)
        case 10: extendsCycle(&d)
        case 11, 12: generatorEdge(&d)
        case 13: emptyArray(&d)
        case 14: predicateGarbage(&d)
        default: transplant(&d)
        }
    }

    // MARK: Tree mutations

    /// A random node's path, among those `filter` accepts (nil when none does).
    mutating func randomPath(_ d: FuzzJSON, where filter: (FuzzJSON, [FuzzJSON.Step]) -> Bool = { _, _ in true }) -> [FuzzJSON.Step]? {
        let candidates = d.nodes.filter { filter($0.node, $0.path) }
        return candidates.isEmpty ? nil : pick(candidates).path
    }

    static func describe(_ path: [FuzzJSON.Step], in d: FuzzJSON) -> String {
        var s = "$"
        var node = d
        for step in path {
            switch (node, step) {
            case (.object(let m), .member(let i)): s += "." + m[i].key; node = m[i].value
            case (.array(let a), .element(let i)): s += "[\(i)]"; node = a[i]
            default: return s
            }
        }
        return s
    }

    mutating func dropKey(_ d: inout FuzzJSON) {
        guard let p = randomPath(d, where: { v, _ in if case .object(let m) = v { return !m.isEmpty } else { return false } }),
            case .object(var members) = d.node(at: p[...])
        else { return }
        let i = below(members.count)
        log.append("drop \(Self.describe(p, in: d)).\(members[i].key)")
        members.remove(at: i)
        d.replace(at: p[...], with: .object(members))
    }

    mutating func changeType(_ d: inout FuzzJSON) {
        guard let p = randomPath(d, where: { _, p in !p.isEmpty }) else { return }
        let new: FuzzJSON = pick([
            .null, .bool(true), .bool(false), .number("0"), .number("1"), .string("x"), .string(""),
            .array([]), .array([.number("1")]), .object([]), .object([("x", .null)]),
        ])
        log.append("retype \(Self.describe(p, in: d)) = \(new.text)")
        d.replace(at: p[...], with: new)
    }

    static let edgeNumbers = [
        "0", "-0", "-1", "1", "2", "3", "0.5", "-0.5", "1.0", "1e308", "-1e308", "1e309", "1e999", "-1e999",
        "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
        "18446744073709551616", "99999999999999999999999999999", "9007199254740993", "9e15", "8999999999999999",
        "2147483647", "2147483648", "-2147483649", "4294967296", "1000000", "1000001", "10000000", "10000001",
        "50000000", "50000001", "100000000", "100000001", "1e-308", "5e-324", "123456789.125", "1E2", "0e0",
        "00", "-", "1.", ".5", "+1", "0x10", "NaN", "Infinity",
    ]

    mutating func numberEdge(_ d: inout FuzzJSON) {
        let numbers = { (v: FuzzJSON, p: [FuzzJSON.Step]) -> Bool in if case .number = v { return true } else { return false } }
        guard let p = randomPath(d, where: numbers) ?? randomPath(d, where: { _, p in !p.isEmpty }) else { return }
        let literal = pick(Self.edgeNumbers)
        log.append("number \(Self.describe(p, in: d)) = \(literal)")
        d.replace(at: p[...], with: .number(literal))
    }

    mutating func deepNesting(_ d: inout FuzzJSON) {
        guard let p = randomPath(d, where: { _, p in !p.isEmpty }) else { return }
        let depth = pick([63, 64, 65, 100, 1_000, 5_000, 100_000])
        let raw =
            chance(0.5)
            ? String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            : String(repeating: "{\"a\":", count: depth) + "1" + String(repeating: "}", count: depth)
        log.append("nest \(Self.describe(p, in: d)) \(depth) deep")
        d.replace(at: p[...], with: .raw(raw))
    }

    static let edgeNames = [
        "", " ", "a b", "a'b", "a\"b", "a;b", "x; DROP TABLE ZPHOTO; --", "select", "SELECT", "Z_PK", "Z_ENT", "Z_OPT",
        "order", "group", "where", "index", "table", "rowid", "_rowid_", "oid", "Z", "pk", "ent", "opt", "ZPHOTO",
        "Z_METADATA", "METADATA", "sqlite_master", "1abc", "_x", "ä", "名前", "Ünïcødé", "😀", "a\u{0}b", "a\nb", "a\r\nb",
        "e\u{301}", "\u{FEFF}x", "a.b", "a..b", ".a", "%@", "%K", "$x", "#x", "\\", "a-b", "+", ".", "-",
        String(repeating: "a", count: 64), String(repeating: "b", count: 65), String(repeating: "x", count: 100_000),
    ]

    /// Replaces a string (a name, mostly) with an awkward one, one the document already
    /// uses elsewhere, or a case variant of one (names that differ only in case).
    mutating func nameEdge(_ d: inout FuzzJSON) {
        let strings = d.nodes.compactMap { n -> (path: [FuzzJSON.Step], value: String)? in
            if case .string(let s) = n.node { return (n.path, s) } else { return nil }
        }
        guard !strings.isEmpty else { return }
        let nameLike = strings.filter {
            d.key(at: $0.path).map {
                ["name", "entity", "destination", "inverse", "extends", "field", "key", "relationship", "from", "to", "of", "by", "count"]
                    .contains($0)
            } ?? true
        }
        let target = pick(nameLike.isEmpty ? strings : nameLike)
        let new: String
        switch below(4) {
        case 0: new = pick(strings).value
        case 1: new = chance(0.5) ? target.value.uppercased() : target.value.lowercased()
        default: new = pick(Self.edgeNames)
        }
        log.append("string \(Self.describe(target.path, in: d)) = \(new.prefix(40).debugDescription)")
        d.replace(at: target.path[...], with: .string(new))
    }

    mutating func duplicateElement(_ d: inout FuzzJSON) {
        guard let p = randomPath(d, where: { v, _ in if case .array(let a) = v { return !a.isEmpty } else { return false } }),
            case .array(var items) = d.node(at: p[...])
        else { return }
        let i = below(items.count)
        var copy = items[i]
        if chance(0.3), case .object(var m) = copy, let k = m.firstIndex(where: { $0.key == "name" }), case .string(let s) = m[k].value {
            m[k].value = .string(chance(0.5) ? s.uppercased() : s.lowercased())
            copy = .object(m)
        }
        log.append("duplicate \(Self.describe(p, in: d))[\(i)]")
        items.insert(copy, at: below(items.count + 1))
        d.replace(at: p[...], with: .array(items))
    }

    mutating func duplicateKey(_ d: inout FuzzJSON) {
        guard let p = randomPath(d, where: { v, _ in if case .object(let m) = v { return !m.isEmpty } else { return false } }),
            case .object(var members) = d.node(at: p[...])
        else { return }
        let m = pick(members)
        log.append("duplicate key \(Self.describe(p, in: d)).\(m.key)")
        members.append((m.key, chance(0.5) ? m.value : .null))
        d.replace(at: p[...], with: .object(members))
    }

    /// Variant A extends B extends A, or a variant extends itself.
    mutating func extendsCycle(_ d: inout FuzzJSON) {
        guard case .object(var root) = d, let vi = root.firstIndex(where: { $0.key == "variants" }),
            case .array(var variants) = root[vi].value, !variants.isEmpty
        else { return }
        func name(_ v: FuzzJSON) -> String { if case .string(let s)? = v["name"] { return s } else { return "?" } }
        func setExtends(_ v: inout FuzzJSON, _ base: String) {
            guard case .object(var m) = v else { return }
            if chance(0.8) { m.removeAll { $0.key == "entities" } }
            if let k = m.firstIndex(where: { $0.key == "extends" }) {
                m[k].value = .string(base)
            } else {
                m.append(("extends", .string(base)))
            }
            v = .object(m)
        }
        let a = below(variants.count), b = below(variants.count)
        let nameA = name(variants[a]), nameB = name(variants[b])
        setExtends(&variants[a], nameB)
        if a != b { setExtends(&variants[b], nameA) }
        log.append("extends cycle variants[\(a)] <-> variants[\(b)]")
        root[vi].value = .array(variants)
        d = .object(root)
    }

    /// Values at and beyond the edges of each generator parameter.
    static let generatorEdges: [String: [FuzzJSON]] = {
        let n = { (s: String) in FuzzJSON.number(s) }
        let big = [
            n("0"), n("-1"), n("1000000"), n("1000001"), n("10000000"), n("100000000"), n("100000001"), n("1e308"),
            n("9223372036854775808"),
        ]
        return [
            "min": [n("0"), n("-1"), n("1e308"), n("-1e308"), n("-9223372036854775808"), n("9e15"), n("-9e15"), n("1000000")],
            "max": [
                n("0"), n("-1"), n("1e308"), n("-1e308"), n("9223372036854775807"), n("9e15"), n("8999999999999999"), n("1000000"),
                n("1000001"),
            ],
            "scale": [n("0"), n("-1"), n("1e-300"), n("1e300"), n("5e-324"), n("1e15"), n("1e308")],
            "alpha": [n("0"), n("-1"), n("1e-300"), n("1e-3"), n("1e300"), n("5e-324")],
            "roundTo": [n("0"), n("1"), n("1000000"), n("1000001")],
            "roundAbove": [n("-1"), n("0"), n("-9e15")],
            "values": [
                .array([]), .array([.null]), .array([.array([n("1")])]), .array([n("1"), .string("a")]), .array([n("-1")]),
                .array([n("1e308")]), .array([n("1000001")]), .array([n("9223372036854775808")]),
            ],
            "weights": [.array([]), .array([n("0")]), .array([n("-1")]), .array([n("1e308"), n("1e308")]), .array([.string("a")])],
            "zipf": [n("-1"), n("0"), n("1e308"), n("-1e308"), n("100"), n("10.5")],
            "minLength": big, "maxLength": big,
            "words": [
                .array([]), .array([.string("")]), .array([.string(""), .string("")]), .array([.string(" ")]), .array([n("1")]),
                .array([.string(String(repeating: "w", count: 100_000))]),
            ],
            "probability": [n("-0.1"), n("1.5"), n("0"), n("1"), n("1e308")],
            "stddev": [n("-1"), n("0"), n("1e308"), n("1e300")],
            "mean": [n("1e308"), n("-1e308"), n("1e300"), n("9.3e18")],
            "from": [
                .string("2014-02-30"), .string("9999-12-31"), .string("0000-01-01"), .string("2014-13-01"), .string("x"),
                .string("+014-01-01"),
            ],
            "to": [.string("2014-02-30"), .string("9999-12-31"), .string("0000-01-01"), .string("1900-01-01"), .string("")],
            "clusters": [
                .array([]), .array([.object([("latitude", n("1e308")), ("longitude", n("0")), ("sigma", n("-1")), ("weight", n("-1"))])]),
                .array([.object([("latitude", n("0")), ("longitude", n("0")), ("sigma", n("1e308")), ("weight", n("0"))])]),
            ],
            "scatter": [n("-1"), n("2"), n("0"), n("1")],
            "scatterLabels": [.array([]), .array([.string("")])],
            "start": [n("9e15"), n("-9e15"), n("0"), n("8999999999999999")],
            "step": [n("9e15"), n("-9e15"), n("0")],
            "value": [n("1e308"), .string("x"), n("-1"), n("1000000"), n("1000001"), n("9223372036854775808"), n("0.5")],
            "count": [n("0"), n("1"), n("10000000"), n("10000001"), n("-1")],
            "function": [.string("floor"), .string("day"), .string("x")],
            "kind": [
                "sequence", "uniformInt", "uniformDouble", "normal", "pareto", "choice", "text", "uuid", "dateRange",
                "clusteredLocation", "bool", "bytes", "constant", "countOf", "parentField", "derived", "nope",
            ].map { .string($0) },
        ]
    }()

    mutating func generatorEdge(_ d: inout FuzzJSON) {
        let generators = { (v: FuzzJSON, _: [FuzzJSON.Step]) -> Bool in
            if case .string? = v["kind"], case .object = v { return true } else { return false }
        }
        guard let p = randomPath(d, where: generators), case .object(var members) = d.node(at: p[...]) else { return }
        let present = members.map(\.key).filter { Self.generatorEdges[$0] != nil && $0 != "kind" }
        let key: String
        if !present.isEmpty && chance(0.85) {
            key = pick(present)
        } else {
            key = pick(Array(Self.generatorEdges.keys).sorted())
        }
        if (key == "min" || key == "minLength" || key == "from") && chance(0.3) {
            // min above max: swap the pair.
            let other = key == "min" ? "max" : key == "minLength" ? "maxLength" : "to"
            if let a = members.firstIndex(where: { $0.key == key }), let b = members.firstIndex(where: { $0.key == other }) {
                let v = members[a].value
                members[a].value = members[b].value
                members[b].value = v
                log.append("swap \(Self.describe(p, in: d)).\(key)/\(other)")
                d.replace(at: p[...], with: .object(members))
                return
            }
        }
        let value = pick(Self.generatorEdges[key]!)
        if let k = members.firstIndex(where: { $0.key == key }) { members[k].value = value } else { members.append((key, value)) }
        log.append("generator \(Self.describe(p, in: d)).\(key) = \(value.text.prefix(60))")
        d.replace(at: p[...], with: .object(members))
    }

    mutating func emptyArray(_ d: inout FuzzJSON) {
        guard let p = randomPath(d, where: { v, _ in if case .array(let a) = v { return !a.isEmpty } else { return false } }) else {
            return
        }
        log.append("empty \(Self.describe(p, in: d))")
        d.replace(at: p[...], with: .array([]))
    }

    static let garbagePredicates: [String] = [
        "", "   ", "likes >", "((((", "likes == %@", "likes == 1; DROP TABLE ZPHOTO", "FUNCTION(likes, 'x')", "likes + 1 > 2",
        "ANY", "SUBQUERY(", "\"unterminated", "likes IN {", "likes BETWEEN {1}", "@count", "date > CAST(1e308, 'NSDate')",
        "likes == 99999999999999999999999", "likes ==[cd] 'x'", "TRUEPREDICATE", "NOT NOT NOT TRUEPREDICATE", "likes == 'a\u{0}b'",
        "😀 == 1", "%K == 1", "%5$@ == 1", "likes == $x", "{1,{2,{3}}} CONTAINS 1", "Z_PK == 1", "select == 1", "#order == 1",
        "likes == 1 OR likes == 'x' AND date < 1e999", "likes BETWEEN {9223372036854775807, -9223372036854775808}",
        String(repeating: "(", count: 5_000) + "TRUEPREDICATE" + String(repeating: ")", count: 5_000),
        String(repeating: "NOT ", count: 5_000) + "TRUEPREDICATE",
        String(repeating: "! ", count: 300) + "TRUEPREDICATE",
        Array(repeating: "likes == 1", count: 3_000).joined(separator: " OR "),
        Array(repeating: "TRUEPREDICATE", count: 200).joined(separator: " AND "),
        "likes IN " + String(repeating: "{", count: 3_000) + "1" + String(repeating: "}", count: 3_000),
        "ANY " + Array(repeating: "a", count: 2_000).joined(separator: ".") + " == 1",
    ]

    mutating func predicateGarbage(_ d: inout FuzzJSON) {
        let predicates = { (v: FuzzJSON, p: [FuzzJSON.Step]) -> Bool in
            guard let k = d.key(at: p) else { return false }
            return k == "predicate" || k == "having" || k == "arguments" || k == "havingArguments"
        }
        if let p = randomPath(d, where: predicates), chance(0.8) {
            if d.key(at: p)?.hasSuffix("rguments") == true {
                let args: [FuzzJSON] = [
                    .array([]), .array([.object([("date", .string("x"))])]), .array([.array([.array([])])]),
                    .array([.number("1e999"), .string("a"), .null]), .object([]),
                ]
                let a = pick(args)
                log.append("arguments \(Self.describe(p, in: d)) = \(a.text)")
                d.replace(at: p[...], with: a)
            } else {
                let g = pick(Self.garbagePredicates)
                log.append("predicate \(Self.describe(p, in: d)) = \(g.prefix(40).debugDescription)")
                d.replace(at: p[...], with: .string(g))
            }
            return
        }
        // No predicate yet: give one to a workload.
        guard case .array(let ws)? = d["workloads"], !ws.isEmpty, case .object(var root) = d,
            let wi = root.firstIndex(where: { $0.key == "workloads" })
        else { return }
        var items = ws
        let i = below(items.count)
        guard case .object(var m) = items[i] else { return }
        let g = pick(Self.garbagePredicates)
        m.removeAll { $0.key == "predicate" }
        m.append(("predicate", .string(g)))
        items[i] = .object(m)
        root[wi].value = .array(items)
        log.append("predicate $.workloads[\(i)].predicate = \(g.prefix(40).debugDescription)")
        d = .object(root)
    }

    /// Copies one node over another: shapes that are valid somewhere, put elsewhere.
    mutating func transplant(_ d: inout FuzzJSON) {
        guard let from = randomPath(d, where: { _, p in !p.isEmpty }), let to = randomPath(d, where: { _, p in !p.isEmpty }),
            let v = d.node(at: from[...])
        else { return }
        log.append("copy \(Self.describe(from, in: d)) over \(Self.describe(to, in: d))")
        d.replace(at: to[...], with: v)
    }

    // MARK: Byte mutations

    mutating func mutateBytes(_ bytes: inout [UInt8]) {
        func insideString() -> Int {
            let quotes = bytes.indices.filter { bytes[$0] == UInt8(ascii: "\"") }
            return quotes.isEmpty ? below(bytes.count + 1) : pick(quotes) + 1
        }
        switch below(6) {
        case 0:
            let bad = pick(
                [[0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0x80], [0xF5, 0x80, 0x80, 0x80], [0xE2, 0x82], [0xFE, 0xFF]] as [[UInt8]])
            let at = chance(0.7) ? insideString() : below(bytes.count + 1)
            log.append("invalid UTF-8 \(bad) at byte \(at)")
            bytes.insert(contentsOf: bad, at: at)
        case 1:
            log.append("BOM")
            bytes.insert(contentsOf: [0xEF, 0xBB, 0xBF], at: 0)
        case 2:
            let at = chance(0.5) ? insideString() : below(bytes.count + 1)
            log.append("NUL at byte \(at)")
            bytes.insert(0, at: at)
        case 3:
            let at = below(bytes.count)
            log.append("truncate at byte \(at)")
            bytes.removeSubrange(at...)
        case 4:
            let escape = pick(["\\ud800", "\\udc00", "\\ud800\\u0041", "\\u0000", "\\uZZZZ", "\\x41", "\\"])
            let at = insideString()
            log.append("escape \(escape) at byte \(at)")
            bytes.insert(contentsOf: Array(escape.utf8), at: at)
        default:
            let junk = pick(["\u{0C}", "\r\n", "\u{A0}", "/* c */", ",", "]", "}"])
            let at = below(bytes.count + 1)
            log.append("insert \(junk.debugDescription) at byte \(at)")
            bytes.insert(contentsOf: Array(junk.utf8), at: at)
        }
    }
}
