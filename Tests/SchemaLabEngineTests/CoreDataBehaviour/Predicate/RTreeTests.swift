import Foundation
import Testing
@testable import SchemaLabCoreData
@testable import SchemaLabEngine
import SchemaLabTestSupport
import SchemaLabEngineTestSupport

/// R-tree fetch indexes: the `indexed:by:` SQL, exact results against a scan and a
/// compound index over many boxes, the triggers that keep the index in step with the
/// table, and the box sets of a `boxes` workload.
@Suite("R-tree fetch indexes and bounding boxes")
struct RTreeTests {
    static let scenario = """
        {"format": 1, "name": "geo",
         "variants": [
           {"name": "scan", "entities": [{"name": "Post", "attributes": [
              {"name": "latitude", "type": "double"}, {"name": "longitude", "type": "double"},
              {"name": "timestamp", "type": "date"}, {"name": "city", "type": "string"}]}]},
           {"name": "compound", "extends": "scan", "addIndexes": [{"name": "byLatLon", "entity": "Post", "elements": ["latitude", "longitude"]}]},
           {"name": "rtree", "extends": "scan",
            "addIndexes": [{"name": "byLocation", "entity": "Post", "kind": "rtree", "elements": ["latitude", "longitude"]}]},
           {"name": "rtree-one", "extends": "scan",
            "addIndexes": [{"name": "byLocation", "entity": "Post", "kind": "rtree", "elements": ["latitude", "longitude"], "query": "combined"}]}],
         "dataset": {"seed": 9, "entity": "Post", "counts": [2000], "fields": [
           {"fields": ["latitude", "longitude", "city"], "generator": {"kind": "clusteredLocation", "scatter": 0.1, "clusters": [
             {"latitude": 37.7749, "longitude": -122.4194, "sigma": 0.1, "weight": 3, "label": "SF"},
             {"latitude": -33.8688, "longitude": 151.2093, "sigma": 0.2, "weight": 2, "label": "Sydney"}]}},
           {"field": "timestamp", "generator": {"kind": "dateRange", "from": "2018-01-01", "to": "2018-02-01"}}]},
         "workloads": [
           {"name": "box", "kind": "fetch",
            "predicate": "indexed:by:(latitude, 'byLocation') BETWEEN {%@, %@} AND indexed:by:(longitude, 'byLocation') BETWEEN {%@, %@}",
            "boxes": {"count": 40, "seed": 3, "keys": ["latitude", "longitude"], "selectivity": {"min": 0.001, "max": 0.2}},
            "sort": ["timestamp"]},
           {"name": "move", "kind": "update", "predicate": "city == 'SF' AND timestamp < %@", "arguments": [{"date": "2018-01-10"}],
            "set": {"latitude": 10.25}},
           {"name": "batch-move", "kind": "batchUpdate", "predicate": "city == 'Sydney'", "set": {"longitude": -20.5}},
           {"name": "remove", "kind": "delete", "predicate": "timestamp < %@", "arguments": [{"date": "2018-01-05"}]},
           {"name": "batch-remove", "kind": "batchDelete", "predicate": "timestamp > %@", "arguments": [{"date": "2018-01-25"}]}],
         "measurement": {"warmup": 0, "repetitions": 1}}
        """

    static let boxPredicate =
        "indexed:by:(latitude, \"byLocation\") BETWEEN {%@, %@} AND indexed:by:(longitude, \"byLocation\") BETWEEN {%@, %@}"

    /// A variant's store filled with the data set (and the data), in its own directory.
    final class Filled {
        let dir: String
        let store: Store
        let mom: ManagedObjectModel
        let plan: ScenarioPlan
        let data: GeneratedData

        init(_ variant: String, extra: [(Double, Double)] = []) throws {
            plan = try TestSupport.decode(RTreeTests.scenario)
            dir = try TestSupport.temporaryDirectory()
            let model = plan.models[plan.scenario.variants.firstIndex { $0.name == variant }!]
            mom = ManagedObjectModel(model)
            data = GeneratedData(spec: plan.scenario.dataset, count: 2000)
            store = try Store.create(path: dir + "/s.sqlite", model: model)
            let context = ManagedObjectContext(store: store, objectModel: mom)
            try InsertWorkload.insertAll(data, placement: try plan.placement(for: mom), into: context)
            // Extra posts (latitude, longitude): values on the float grid's edges.
            let post = mom.entity("Post")!
            for (lat, lon) in extra {
                _ = context.insert(
                    post,
                    values: post.model.attributes.map { a in
                        a.name == "latitude" ? .real(lat) : a.name == "longitude" ? .real(lon) : a.name == "city" ? .text("edge") : .real(0)
                    })
            }
            try context.save()
        }

        deinit { try? FileManager.default.removeItem(atPath: dir) }

        /// The primary keys a predicate selects, sorted.
        func keys(_ predicate: String, _ arguments: [PredicateValue]) throws -> [Int64] {
            let entity = plan.models[0].entity("Post")!
            let model = mom.model
            let joins = JoinPlanner(model: model, entity: model.entity("Post")!)
            let c = try PredicateCompiler(model: model, entity: model.entity(entity.name)!, joins: joins).compile(
                predicate, arguments: arguments)
            return try store.db.rows("SELECT t0.Z_PK FROM ZPOST t0 WHERE " + c.sql + " ORDER BY t0.Z_PK", c.bindings).map {
                $0[0].integerValue!
            }
        }

        /// Runs one of the scenario's workloads once on this store.
        func run(_ name: String) throws -> WorkloadOutcome {
            let spec = plan.scenario.workloads.first { $0.name == name }!
            let w = try WorkloadFactory.make(
                spec, model: mom, dataset: plan.scenario.dataset, data: data,
                placement: try plan.placement(for: mom))
            try w.prepare(store: store)
            return try w.run(store: store)
        }
    }

    static func compile(_ variant: String, _ text: String, _ arguments: [PredicateValue]) throws -> CompiledPredicate {
        let plan = try TestSupport.decode(scenario)
        let model = plan.models[plan.scenario.variants.firstIndex { $0.name == variant }!]
        let post = model.entity("Post")!
        return try PredicateCompiler(model: model, entity: post, joins: JoinPlanner(model: model, entity: post)).compile(
            text, arguments: arguments)
    }

    @Test("indexed:by: becomes Core Data's sub-select per comparison, widened bounds and a recheck; the plain column without the index")
    func sqlShapes() throws {
        let args: [PredicateValue] = [.real(37.5), .real(37.9), .real(-122.5), .real(-122.3)]
        let rtree = try Self.compile("rtree", Self.boxPredicate, args)
        #expect(
            rtree.sql
                == "((t0.Z_PK IN (SELECT n1_t0.Z_PK FROM Z_Post_byLocation n1_t0 WHERE (? <= n1_t0.ZLATITUDE_MIN AND n1_t0.ZLATITUDE_MAX <= ?))"
                + " AND t0.ZLATITUDE BETWEEN ? AND ?) AND (t0.Z_PK IN (SELECT n2_t0.Z_PK FROM Z_Post_byLocation n2_t0 WHERE"
                + " (? <= n2_t0.ZLONGITUDE_MIN AND n2_t0.ZLONGITUDE_MAX <= ?)) AND t0.ZLONGITUDE BETWEEN ? AND ?))")
        // The R-tree's bounds are outside the box, by at most three float steps; the recheck's are the box.
        let b = rtree.bindings.map { $0.doubleValue! }
        #expect(b[0] < 37.5 && b[0] >= Double(Float(37.5).nextDown.nextDown.nextDown))
        #expect(b[1] > 37.9 && b[1] <= Double(Float(37.9).nextUp.nextUp.nextUp))
        #expect(Array(b[2...3]) == [37.5, 37.9] && Array(b[6...7]) == [-122.5, -122.3])
        #expect(b[4] < -122.5 && b[5] > -122.3)
        let one = try Self.compile("rtree-one", Self.boxPredicate, args)
        #expect(
            one.sql
                == "(t0.Z_PK IN (SELECT n1_t0.Z_PK FROM Z_Post_byLocation n1_t0 WHERE (? <= n1_t0.ZLATITUDE_MIN AND n1_t0.ZLATITUDE_MAX <= ?"
                + " AND ? <= n1_t0.ZLONGITUDE_MIN AND n1_t0.ZLONGITUDE_MAX <= ?)) AND t0.ZLATITUDE BETWEEN ? AND ? AND t0.ZLONGITUDE BETWEEN ? AND ?)"
        )
        #expect(one.bindings.count == 8)
        // In a longer AND, the two R-tree comparisons still share one sub-select.
        let longer = try Self.compile("rtree-one", "timestamp > %@ AND " + Self.boxPredicate, [.real(0)] + args)
        #expect(
            longer.sql.contains(
                "t0.Z_PK IN (SELECT n1_t0.Z_PK FROM Z_Post_byLocation n1_t0 WHERE (? <= n1_t0.ZLATITUDE_MIN AND n1_t0.ZLATITUDE_MAX <= ? AND ? <= n1_t0.ZLONGITUDE_MIN"
            ))
        #expect(longer.sql.hasSuffix(" AND t0.ZTIMESTAMP > ?)") && !longer.sql.contains("n2_t0"))
        for variant in ["scan", "compound"] {
            let plain = try Self.compile(variant, Self.boxPredicate, args)
            #expect(plain.sql == "(t0.ZLATITUDE BETWEEN ? AND ? AND t0.ZLONGITUDE BETWEEN ? AND ?)")
            #expect(plain.bindings == args.map { $0.sqlValue! })
        }
        // The plain BETWEEN form never uses the R-tree.
        #expect(try Self.compile("rtree", "latitude BETWEEN {1, 2}", []).sql == "t0.ZLATITUDE BETWEEN ? AND ?")
    }

    @Test("indexed:by: errors say where and what")
    func errors() throws {
        let cases: [(String, String)] = [
            ("indexed:by:(latitude, \"byLocation\") > 5", "column 37: indexed:by:(...) is answered with BETWEEN {lower, upper}, not >"),
            ("indexed:by:(latitude) BETWEEN {1, 2}", "column 21: expected ','"),
            ("indexed:by:(latitude, byLocation) BETWEEN {1, 2}", "column 23: indexed:by: needs the index name as a string"),
            ("indexed:by:(5, \"byLocation\") BETWEEN {1, 2}", "column 13: indexed:by: needs an attribute key path first"),
            (
                "indexed:by:(timestamp, \"byLocation\") BETWEEN {1, 2}",
                "column 13: the R-tree index 'byLocation' of Post does not index 'timestamp'"
            ),
            ("indexed:by:(latitude, \"byLocation\") BETWEEN {'a', 'b'}", "column 45: indexed:by:(...) BETWEEN needs 2 numbers"),
            ("latitude BETWEEN indexed:by:(latitude, \"byLocation\")", "column 18: indexed:by:(...) can only be the left side of BETWEEN"),
            ("NOT (indexed:by:(latitude, \"byLocation\") BETWEEN {1, 2})", "column 6: indexed:by:(...) cannot be under NOT"),
        ]
        for (text, message) in cases {
            #expect { _ = try Self.compile("rtree", text, []) } throws: { error in
                let e = error as! SchemaLabCoreData.PredicateError
                return "column \(e.column): \(e.message)".hasPrefix(message)
            }
        }
    }

    @Test(
        "A scan, a compound index and both R-tree queries return the same posts for 400 random boxes; Core Data's literal bounds miss edge rows"
    )
    func equalRows() throws {
        // Posts exactly on box edges chosen below, where a 32-bit rounding would lose them.
        var edges: [(Double, Double)] = []
        var rng = SplitMix64(seed: 77)
        for _ in 0..<200 { edges.append((37.7 + rng.unit() * 0.2, -122.5 + rng.unit() * 0.2)) }
        let stores = try ["scan", "compound", "rtree", "rtree-one"].map { try Filled($0, extra: edges) }
        var missedByLiteral = 0, nonEmpty = 0
        for i in 0..<400 {
            let args: [PredicateValue]
            if i % 4 == 0 {
                // A box whose lower-left corner is an edge post.
                let (lat, lon) = edges[i / 4 % edges.count]
                let w = 0.001 + rng.unit() * 0.05
                args = [.real(lat), .real(lat + w), .real(lon), .real(lon + w)]
            } else if i % 4 == 2 {
                // A box whose upper-right corner is an edge post (the R-tree's MAX rounded up).
                let (lat, lon) = edges[(i / 4 + 100) % edges.count]
                let w = 0.001 + rng.unit() * 0.05
                args = [.real(lat - w), .real(lat), .real(lon - w), .real(lon)]
            } else {
                let lat = 37.6 + rng.unit() * 0.4, lon = -122.6 + rng.unit() * 0.4, w = rng.unit() * 0.2
                args = [.real(lat - w), .real(lat + w), .real(lon - w), .real(lon + w)]
            }
            let expected = try stores[0].keys("latitude BETWEEN {%@, %@} AND longitude BETWEEN {%@, %@}", args)
            if !expected.isEmpty { nonEmpty += 1 }
            for s in stores {
                #expect(try s.keys(Self.boxPredicate, args) == expected, "box \(i)")
            }
            // Core Data's statement as logged: the R-tree sub-selects with the literal bounds, no recheck.
            let literal = try stores[2].store.db.rows(
                "SELECT Z_PK FROM Z_Post_byLocation WHERE ? <= ZLATITUDE_MIN AND ZLATITUDE_MAX <= ? AND ? <= ZLONGITUDE_MIN AND ZLONGITUDE_MAX <= ?",
                args.map { $0.sqlValue! })
            if literal.count < expected.count { missedByLiteral += 1 }
        }
        #expect(nonEmpty > 300)
        #expect(missedByLiteral > 100, "the literal bounds lose the corner post of the edge boxes")
        // A post with no location: the R-tree holds it at 0, the recheck keeps it out.
        let f = try Filled("rtree", extra: [])
        try f.store.db.execute("UPDATE ZPOST SET ZLATITUDE = NULL, ZLONGITUDE = NULL WHERE Z_PK = 1")
        let around0: [PredicateValue] = [.real(-1), .real(1), .real(-1), .real(1)]
        #expect(try f.store.db.scalar("SELECT COUNT(*) FROM Z_Post_byLocation WHERE Z_PK = 1 AND ZLATITUDE_MIN = 0") == .integer(1))
        #expect(try f.keys(Self.boxPredicate, around0).isEmpty)
    }

    @Test("The R-tree triggers keep the index in step after inserts, updates, batch updates, deletes and batch deletes")
    func triggersSync() throws {
        func inStep(_ f: Filled, _ label: String) throws {
            let rows = try f.store.db.scalar("SELECT COUNT(*) FROM ZPOST").integerValue!
            #expect(try f.store.db.scalar("SELECT COUNT(*) FROM Z_Post_byLocation").integerValue! == rows, "\(label): one entry per row")
            let matching = try f.store.db.scalar(
                """
                SELECT COUNT(*) FROM ZPOST t JOIN Z_Post_byLocation r ON r.Z_PK = t.Z_PK
                WHERE r.ZLATITUDE_MIN <= t.ZLATITUDE AND t.ZLATITUDE <= r.ZLATITUDE_MAX AND r.ZLATITUDE_MAX - r.ZLATITUDE_MIN < 0.0001
                  AND r.ZLONGITUDE_MIN <= t.ZLONGITUDE AND t.ZLONGITUDE <= r.ZLONGITUDE_MAX AND r.ZLONGITUDE_MAX - r.ZLONGITUDE_MIN < 0.0001
                """
            ).integerValue!
            #expect(matching == rows, "\(label): every entry bounds its row's values")
        }
        let f = try Filled("rtree")
        try inStep(f, "insert")
        #expect(try f.store.db.scalar("SELECT COUNT(*) FROM Z_Post_byLocation").integerValue! == 2000)
        let moved = try f.run("move").rows
        #expect(moved > 0)
        try inStep(f, "update")
        #expect(try f.keys(Self.boxPredicate, [.real(10.2), .real(10.3), .real(-180), .real(180)]).count == moved)
        _ = try f.run("batch-move")
        try inStep(f, "batch update")
        #expect(
            try f.keys(Self.boxPredicate, [.real(-90), .real(90), .real(-20.6), .real(-20.4)]).count
                == (try f.store.db.scalar("SELECT COUNT(*) FROM ZPOST WHERE ZCITY = 'Sydney'").integerValue!))
        for name in ["remove", "batch-remove"] {
            let before = try f.store.db.scalar("SELECT COUNT(*) FROM ZPOST").integerValue!
            _ = try f.run(name)
            #expect(try f.store.db.scalar("SELECT COUNT(*) FROM ZPOST").integerValue! < before, "\(name) deleted rows")
            try inStep(f, name)
        }
    }

    @Test("A box set is the same for every run and variant, its boxes hold about the asked fractions, and every box is timed")
    func boxSets() throws {
        let plan = try TestSupport.decode(Self.scenario)
        let spec = plan.scenario.workloads[0].boxes!
        let data = GeneratedData(spec: plan.scenario.dataset, count: 2000)
        let a = BoxSet(spec: spec, data: data).boxes, b = BoxSet(spec: spec, data: data).boxes
        #expect(a == b && a.count == 40)
        for box in a {
            #expect(box.lower0 < box.upper0 && box.lower1 < box.upper1)
            #expect(box.sampledSelectivity >= 0.0005 && box.sampledSelectivity <= 0.3)
        }
        let spread = a.map(\.sampledSelectivity)
        #expect(spread.max()! / spread.min()! > 20, "log-uniform over 0.001...0.2")
        // Every variant runs the same boxes, gets the same rows, and times each box.
        var signatures: Set<String> = []
        for variant in ["scan", "compound", "rtree", "rtree-one"] {
            let f = try Filled(variant)
            let outcome = try f.run("box")
            #expect(outcome.reads.count == 40)
            #expect(outcome.reads.reduce(0) { $0 + $1.rows } == outcome.rows)
            signatures.insert(try outcome.digest().digest)
        }
        #expect(signatures.count == 1)
    }

    @Test("boxes: bad input is an error at its JSON path")
    func boxErrors() throws {
        let cases: [(String, String, String)] = [
            (#""keys": ["latitude", "longitude"]"#, #""keys": ["latitude"]"#, "$.workloads[0].boxes.keys: a box bounds two fields"),
            (
                #""keys": ["latitude", "longitude"]"#, #""keys": ["latitude", "city"]"#,
                "$.workloads[0].boxes.keys[1]: 'city' is not a number"
            ),
            (
                #""keys": ["latitude", "longitude"]"#, #""keys": ["latitude", "height"]"#,
                "$.workloads[0].boxes.keys[1]: 'height' is not a field"
            ),
            (#""min": 0.001"#, #""min": 0"#, "$.workloads[0].boxes.selectivity.min: a selectivity is the fraction"),
            (#""min": 0.001"#, #""min": 0.5"#, "$.workloads[0].boxes.selectivity.min: 'min' (0.5) is above 'max' (0.2)"),
            (
                #"{%@, %@} AND indexed:by:(longitude, 'byLocation') BETWEEN {%@, %@}"#, "{%@, %@}",
                "$.workloads[0].predicate: column 1: 4 arguments given but the predicate uses 2 (with 'boxes', each box appends its 4 bounds"
            ),
            (
                #""sort": ["timestamp"]}"#, #""sort": ["timestamp"], "resultType": "count"}"#,
                "$.workloads[0].boxes: a box set fetches managed objects"
            ),
            (
                "indexed:by:(longitude, 'byLocation')", "indexed:by:(longitude, 'byLocaton')",
                "$.workloads[0].predicate: column 58: no variant has an R-tree index named 'byLocaton'"
            ),
        ]
        for (old, new, message) in cases {
            #expect(Self.scenario.contains(old))
            let text = Self.scenario.replacingOccurrences(of: old, with: new)
            #expect { _ = try TestSupport.decode(text) } throws: { error in
                let e = error as! ScenarioError
                return "\(e.path): \(e.message)".hasPrefix(message)
                    ? true
                    : {
                        print("got: \(e.path): \(e.message)"); return false
                    }()
            }
        }
    }
}
