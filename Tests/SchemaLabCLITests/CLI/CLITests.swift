import Foundation
import Testing
@testable import SchemaLabSQLite
@testable import SchemaLab
import SchemaLabTestSupport

@Suite("The schemalab CLI, end to end")
struct CLITests {
    /// The minimal scenario with `workloads`, written as `name` in `dir`; its path.
    static func minimalScenario(workloads: [[String: Any]], named name: String, in dir: String) throws -> String {
        var s = TestSupport.minimalScenario()
        s["workloads"] = workloads
        let file = dir + "/" + name
        try Data(TestSupport.json(s).utf8).write(to: URL(fileURLWithPath: file))
        return file
    }

    @Test("run writes results.csv, samples.csv, plans.csv and env.json, and prints the summary")
    func runTiny() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let out = dir + "/tiny"
        let r = try TestSupport.runCLI(["run", TestSupport.tinyScenario, "--out", out])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("median ms (statements), n=120"))
        let results = CSVWriter.parse(try String(contentsOfFile: out + "/results.csv", encoding: .utf8))
        #expect(results[0] == RunFiles.results.header)
        #expect(results.count == 1 + 3 * 4)
        let col = { (name: String) in results[0].firstIndex(of: name)! }
        let split = results.first { $0[col("schema")] == "split" && $0[col("workload")] == "sections" }!
        #expect(split[col("statements")] == "2", "a clean context counts sections with GROUP BY: no fault per note")
        #expect(results.dropFirst().allSatisfy { ["reference", "same"].contains($0[col("reference_check")]) })
        #expect(Set(results.dropFirst().filter { $0[col("workload")] == "sections-batched" }.map { $0[col("result_digest")] }).count == 1)
        let samples = CSVWriter.parse(try String(contentsOfFile: out + "/samples.csv", encoding: .utf8))
        #expect(samples.count == 1 + 3 * 4 * 2)
        let plans = CSVWriter.parse(try String(contentsOfFile: out + "/plans.csv", encoding: .utf8))
        #expect(plans.contains { $0[1] == "flat+index" && $0[2] == "sections" && $0[8].contains("Z_Note_byStarsCreated") })
        let env = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: out + "/env.json"))) as! [String: Any]
        #expect((env["scenarioSHA256"] as? String)?.count == 64)
        #expect(((env["environment"] as? [String: Any])?["sqliteVersion"] as? String) == SQLiteLibrary.version)
        #expect(!FileManager.default.fileExists(atPath: out + ".partial-0"))

        let plansOut = try TestSupport.runCLI(["plans", out, "--variant", "split", "--workload", "sections"])
        #expect(plansOut.status == 0)
        #expect(plansOut.out.contains("USE TEMP B-TREE FOR ORDER BY"))
    }

    @Test("An existing output directory is never overwritten silently; --replace keeps the old one")
    func noClobber() throws {
        let dir = try TestSupport.temporaryDirectory()
        let out = dir + "/res"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: out + "/results.csv"))
        let r = try TestSupport.runCLI(["run", TestSupport.tinyScenario, "--out", out, "--workloads", "by-created"])
        #expect(r.status == 2)
        #expect(r.err.contains("already exists"))
        #expect(try String(contentsOfFile: out + "/results.csv", encoding: .utf8) == "keep me")
        let again = try TestSupport.runCLI([
            "run", TestSupport.tinyScenario, "--out", out, "--workloads", "by-created", "--replace", "--quiet",
        ])
        #expect(again.status == 0, "\(again.err)")
        #expect(try String(contentsOfFile: out + ".previous/results.csv", encoding: .utf8) == "keep me")
        #expect(try String(contentsOfFile: out + "/results.csv", encoding: .utf8).hasPrefix("scenario,schema,workload"))
    }

    @Test("A bad scenario exits 2 with file and JSON path, and creates no output")
    func badScenario() throws {
        let dir = try TestSupport.temporaryDirectory()
        var s = TestSupport.minimalScenario()
        s["workloads"] = [["name": "f", "kind": "fetch", "sort": ["rnak"]]]
        let file = dir + "/bad.json"
        try Data(TestSupport.json(s).utf8).write(to: URL(fileURLWithPath: file))
        let out = dir + "/out"
        let r = try TestSupport.runCLI(["run", file, "--out", out])
        #expect(r.status == 2)
        #expect(r.err.contains("\(file): $.workloads[0].sort[0]: key path 'rnak' does not resolve"))
        #expect(!FileManager.default.fileExists(atPath: out))

        let v = try TestSupport.runCLI(["validate", TestSupport.tinyScenario, file])
        #expect(v.status == 2)
        #expect(v.out.contains("tiny.json: ok"))
        #expect(v.err.contains("$.workloads[0].sort[0]"))
    }

    @Test("A predicate that does not parse, or names what a variant lacks, exits 2 with the JSON path and the column")
    func badPredicate() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for (predicate, expected) in [
            ("rank > ", "$.workloads[0].predicate: column 7: expected a value after '>'"),
            ("rank > 3 AND rnak < 5", "$.workloads[0].predicate: column 14: in variant A, no attribute 'rnak'"),
        ] {
            var s = TestSupport.minimalScenario()
            s["workloads"] = [["name": "f", "kind": "fetch", "predicate": predicate]]
            let file = dir + "/bad.json"
            try Data(TestSupport.json(s).utf8).write(to: URL(fileURLWithPath: file))
            let r = try TestSupport.runCLI(["run", file, "--out", dir + "/out"])
            #expect(r.status == 2)
            #expect(r.err.contains(expected), "\(r.err)")
            #expect(!FileManager.default.fileExists(atPath: dir + "/out"))
        }
    }

    @Test("Unused predicate arguments and batchSize on a dictionary fetch are warnings at their JSON path; the run goes on")
    func warnings() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = try Self.minimalScenario(
            workloads: [
                ["name": "extra", "kind": "fetch", "predicate": "rank > %@", "arguments": [3, 5]],
                [
                    "name": "rows", "kind": "fetch", "resultType": "dictionaries", "propertiesToFetch": ["rank"], "batchSize": 20,
                    "sort": ["rank"],
                ],
            ], named: "warn.json", in: dir)
        let v = try TestSupport.runCLI(["validate", file])
        #expect(v.status == 0 && v.out.contains("warn.json: ok"), "\(v.out) \(v.err)")
        #expect(
            v.err.contains(
                "warn.json: $.workloads[0].predicate: warning: 2 arguments given but the predicate uses 1: the last one is ignored"),
            "\(v.err)")
        #expect(v.err.contains("$.workloads[1].batchSize: warning: a dictionary fetch is not batched"), "\(v.err)")
        let r = try TestSupport.runCLI(["run", file, "--out", dir + "/out", "--reps", "1", "--quiet"])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.err.contains("schemalab: \(file): $.workloads[0].predicate: warning: 2 arguments given"), "\(r.err)")
        let results = try String(contentsOfFile: dir + "/out/results.csv", encoding: .utf8)
        #expect(results.contains(",extra,10,"), "\(results)")
    }

    @Test("A dictionary fetch returns each row's object ID (an expression over the evaluated object) as its primary key")
    func objectIDInDictionaries() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let file = try Self.minimalScenario(
            workloads: [
                [
                    "name": "ids", "kind": "fetch", "resultType": "dictionaries", "propertiesToFetch": ["objectID", "rank"],
                    "sort": ["rank"],
                ],
                [
                    "name": "only", "kind": "fetch", "resultType": "dictionaries", "propertiesToFetch": ["objectID"],
                    "predicate": "rank > 4",
                ],
            ], named: "ids.json", in: dir)
        for (workload, sql) in [
            ("ids", "SELECT t0.Z_PK, t0.ZRANK FROM ZITEM t0 ORDER BY t0.ZRANK"),
            ("only", "SELECT t0.Z_PK FROM ZITEM t0 WHERE t0.ZRANK > ?"),
        ] {
            let explain = try TestSupport.runCLI([
                "explain", file, "--variant", "A", "--workload", workload, "--size", "10", "--sqlite3", "/nonexistent",
            ])
            #expect(explain.status == 0 && explain.out.contains(sql), "\(workload): \(explain.out) \(explain.err)")
        }
        let r = try TestSupport.runCLI(["run", file, "--out", dir + "/out", "--reps", "1", "--quiet"])
        #expect(r.status == 0, "\(r.err)")
    }

    @Test(
        "A dictionary's objectID is compared by logical identity: a hierarchy and separate tables number objects apart, yet return the same objects"
    )
    func objectIDAcrossLayouts() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let s: [String: Any] = [
            "format": 1, "name": "ids", "reference": "hier",
            "variants": [
                [
                    "name": "hier",
                    "entities": [
                        ["name": "Item", "abstract": true, "attributes": [["name": "title", "type": "string"]]],
                        ["name": "Note", "parent": "Item", "attributes": [["name": "body", "type": "string"]]],
                        ["name": "Photo", "parent": "Item", "attributes": [["name": "thumb", "type": "string"]]],
                    ],
                ],
                [
                    "name": "sep",
                    "entities": [
                        ["name": "Note", "attributes": [["name": "title", "type": "string"], ["name": "body", "type": "string"]]],
                        ["name": "Photo", "attributes": [["name": "title", "type": "string"], ["name": "thumb", "type": "string"]]],
                    ],
                ],
            ],
            "dataset": [
                "seed": 3, "entity": "Note", "counts": [40],
                "fields": [
                    ["field": "entity", "generator": ["kind": "cycle", "values": ["Note", "Photo"]]],
                    ["field": "title", "generator": ["kind": "sequence", "prefix": "t"]],
                    ["field": "body", "generator": ["kind": "text", "minLength": 1, "maxLength": 20]],
                    ["field": "thumb", "generator": ["kind": "text", "minLength": 1, "maxLength": 20]],
                ],
            ],
            "workloads": [
                [
                    "name": "ids", "kind": "fetch", "entity": "Photo", "resultType": "dictionaries",
                    "propertiesToFetch": ["objectID", "title"], "sort": ["title"],
                ]
            ],
        ]
        let file = dir + "/layouts.json"
        try Data(TestSupport.json(s).utf8).write(to: URL(fileURLWithPath: file))
        let r = try TestSupport.runCLI(["run", file, "--out", dir + "/out", "--reps", "1", "--quiet"])
        #expect(r.status == 0, "\(r.err)")
        let results = try String(contentsOfFile: dir + "/out/results.csv", encoding: .utf8)
        #expect(results.contains("sep,ids,40,") && !results.contains("differs"), "\(results)")
    }

    @Test("UUID and binary arguments bind as BLOBs and find the rows a data set of such values holds")
    func uuidAndBinaryArguments() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let first = "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", second = "00000000-0000-0000-0000-00000000002a"
        var s = TestSupport.minimalScenario()
        s["variants"] = [
            [
                "name": "A",
                "entities": [
                    [
                        "name": "Item",
                        "attributes": [
                            ["name": "rank", "type": "integer32"], ["name": "uuid", "type": "binary"], ["name": "blob", "type": "binary"],
                        ],
                    ]
                ],
            ]
        ]
        s["dataset"] = [
            "seed": 1, "entity": "Item", "counts": [30],
            "fields": [
                ["field": "rank", "generator": ["kind": "sequence"]],
                ["field": "uuid", "generator": ["kind": "cycle", "values": [["uuid": first], ["uuid": second], ["uuid": first]]]],
                ["field": "blob", "generator": ["kind": "constant", "value": ["base64": "AAEC"]]],
            ],
        ]
        s["workloads"] = [
            ["name": "one", "kind": "fetch", "predicate": "uuid == %@", "arguments": [["uuid": first]]],
            [
                "name": "list", "kind": "fetch", "predicate": "uuid IN %@",
                "arguments": [[["uuid": second], ["uuid": "11111111-2222-3333-4444-555555555555"]]],
            ],
            ["name": "bytes", "kind": "fetch", "predicate": "blob == %@", "arguments": [["base64": "AAEC"]]],
        ]
        let file = dir + "/uuid.json"
        try Data(TestSupport.json(s).utf8).write(to: URL(fileURLWithPath: file))
        // 30 rows dealt first, second, first: 20 hold the first UUID, 10 the second; every row the bytes.
        for (workload, sql, rows) in [
            ("one", "WHERE t0.ZUUID = ?", 20), ("list", "WHERE t0.ZUUID IN (?,?)", 10), ("bytes", "WHERE t0.ZBLOB = ?", 30),
        ] {
            let explain = try TestSupport.runCLI([
                "explain", file, "--variant", "A", "--workload", workload, "--size", "30", "--sqlite3", "/nonexistent",
            ])
            #expect(explain.status == 0, "\(explain.err)")
            #expect(explain.out.contains(sql) && explain.out.contains(", \(rows) row(s);"), "\(workload): \(explain.out)")
        }
        let r = try TestSupport.runCLI(["run", file, "--out", dir + "/out", "--reps", "1", "--quiet"])
        #expect(r.status == 0, "\(r.err)")
        var wrong = s
        wrong["workloads"] = [["name": "one", "kind": "fetch", "predicate": "uuid == %@", "arguments": [["uuid": "E621E1F8"]]]]
        try Data(TestSupport.json(wrong).utf8).write(to: URL(fileURLWithPath: dir + "/bad.json"))
        let bad = try TestSupport.runCLI(["validate", dir + "/bad.json"])
        #expect(bad.status == 2 && bad.err.contains("$.workloads[0].arguments[0].uuid: expected a UUID"), "\(bad.err)")
    }

    @Test("Apple's grammar end to end: parenthesized expressions, arithmetic, %K segments and folded constants reach the SQL")
    func predicateGrammar() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var s = TestSupport.minimalScenario()
        s["workloads"] = [
            [
                "name": "f", "kind": "fetch", "predicate": "(rank) * 2 > (%@) AND SELF.%K IN {1, 2, nil, {3}} AND rank < {4, 9}[LAST]",
                "arguments": [2, "rank"],
            ]
        ]
        let file = dir + "/grammar.json"
        try Data(TestSupport.json(s).utf8).write(to: URL(fileURLWithPath: file))
        let r = try TestSupport.runCLI(["explain", file, "--variant", "A", "--workload", "f", "--size", "10", "--sqlite3", "/nonexistent"])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("WHERE ((t0.ZRANK * ?) > ? AND t0.ZRANK IN (?,?,?) AND t0.ZRANK < ?)"), "\(r.out)")
    }

    @Test("Bad run options exit 2 and create nothing")
    func badOptions() throws {
        let dir = try TestSupport.temporaryDirectory()
        for args in [["--size", "0"], ["--reps", "0"], ["--variants", "nope"], ["--variants", ""], ["--workloads", ","]] {
            let r = try TestSupport.runCLI(["run", TestSupport.tinyScenario, "--out", dir + "/o"] + args)
            #expect(r.status == 2, "\(args): \(r.err)")
            #expect(!FileManager.default.fileExists(atPath: dir + "/o"))
        }
    }

    @Test("An empty selection is bad input; --help prints no validation message; a one-letter --out is a run directory")
    func selectionsHelpAndShortPaths() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let empty = try TestSupport.runCLI(["run", TestSupport.tinyScenario, "--out", dir + "/e", "--variants", ""])
        #expect(
            empty.status == 2 && empty.err.contains("the selection of variants is empty (the scenario has: flat, flat+index, split)"),
            "\(empty.err)")
        for command in [["run"], ["generate"], ["compare"], ["explain"]] {
            let help = try TestSupport.runCLI(command + ["--help"])
            #expect(help.status == 0 && help.err.isEmpty, "\(command): \(help.err)")
        }
        // Foundation's deletingLastPathComponent stopped the process (SIGILL) on a one-character relative path.
        let short = try TestSupport.runCLI(
            ["run", TestSupport.tinyScenario, "--out", "q", "--size", "20", "--reps", "1", "--quiet"], in: dir)
        #expect(short.status == 0, "\(short.err)")
        #expect(FileManager.default.fileExists(atPath: dir + "/q/results.csv"))
        #expect(RunDirectory.parent(of: "q") == "." && RunDirectory.parent(of: "/q") == "/" && RunDirectory.parent(of: "a/b/") == "a")
    }

    @Test("validate accepts every shipped scenario")
    func validateShipped() throws {
        let r = try TestSupport.runCLI(["validate", TestSupport.photosScenario])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("6 variants x 4 workloads"))
        let dir = TestSupport.packageRoot + "/scenarios"
        let all = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".json") && $0 != "schema.json" }.sorted()
        #expect(all.count >= 6)
        let v = try TestSupport.runCLI(["validate"] + all.map { dir + "/" + $0 } + [dir + "/schema.json"])
        #expect(v.status == 0, "\(v.err)")
        #expect(v.out.contains("schema.json: the scenario format's JSON Schema, not a scenario (skipped)"))
    }

    @Test("The shipped aggregates and posts-per-day scenarios run small: SQL and Swift, counter and GROUP BY agree")
    func shippedReadScenariosRun() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        for (name, size) in [("aggregates", "400"), ("posts-per-day", "300")] {
            let out = dir + "/" + name
            let r = try TestSupport.runCLI([
                "run", TestSupport.packageRoot + "/scenarios/\(name).json", "--out", out,
                "--size", size, "--reps", "1", "--warmup", "0", "--quiet",
            ])
            #expect(r.status == 0, "\(name): \(r.err)")
            #expect(!r.err.contains("differ"), "\(name): \(r.err)")
            let rows = CSVWriter.parse(try String(contentsOfFile: out + "/results.csv", encoding: .utf8))
            let header = rows[0]
            let workload = header.firstIndex(of: "workload")!, agreement = header.firstIndex(of: "agreement_check")!
            let reference = header.firstIndex(of: "reference_check")!
            let paired = rows.dropFirst().filter { ["week-stats-swift", "strong-count-swift", "chart-counter"].contains($0[workload]) }
            #expect(paired.count == (name == "aggregates" ? 6 : 1))
            #expect(paired.allSatisfy { $0[agreement] == "same" })
            #expect(rows.dropFirst().allSatisfy { ["reference", "same"].contains($0[reference]) || $0[reference].isEmpty })
        }
    }

    @Test("compare-raw joins a run with an outside CSV and prints lab/raw ratios; a wrong CSV exits 2")
    func compareRaw() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let out = dir + "/tiny"
        #expect(
            try TestSupport.runCLI(["run", TestSupport.tinyScenario, "--out", out, "--workloads", "by-created", "--quiet"]).status == 0)
        let rows = CSVWriter.parse(try String(contentsOfFile: out + "/results.csv", encoding: .utf8))
        let h = rows[0]
        let flat = rows.first { $0[h.firstIndex(of: "schema")!] == "flat" }!
        let labMin = Double(flat[h.firstIndex(of: "min_ms")!])!, labMedian = Double(flat[h.firstIndex(of: "median_ms")!])!
        // An outside program that took exactly half the lab's times.
        let raw = dir + "/raw.csv"
        try "schema,workload,n,min_ms,median_ms\nflat,by-created,120,\(labMin / 2),\(labMedian / 2)\n".write(
            toFile: raw, atomically: true, encoding: .utf8)
        let r = try TestSupport.runCLI(["compare-raw", out, raw, "--csv", dir + "/ratios.csv"])
        #expect(r.status == 0, "\(r.err)")
        let ratios = CSVWriter.parse(try String(contentsOfFile: dir + "/ratios.csv", encoding: .utf8))
        #expect(ratios.count == 2)
        #expect(ratios[1][ratios[0].firstIndex(of: "ratio_min")!] == "2.00")
        #expect(ratios[1][ratios[0].firstIndex(of: "ratio_median")!] == "2.00")
        try "schema,workload\nflat,by-created\n".write(toFile: raw, atomically: true, encoding: .utf8)
        let bad = try TestSupport.runCLI(["compare-raw", out, raw])
        #expect(bad.status == 2)
        #expect(bad.err.contains("raw.csv has no column n, min_ms, median_ms"), "\(bad.err)")
    }

    @Test("plot renders SVG and PNG with gnuplot", .enabled(if: CLITests.hasGnuplot, "gnuplot is not installed (make setup installs it)"))
    func plot() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let out = dir + "/tiny"
        #expect(try TestSupport.runCLI(["run", TestSupport.tinyScenario, "--out", out, "--quiet"]).status == 0)
        let r = try TestSupport.runCLI(["plot", out])
        #expect(r.status == 0, "\(r.err)")
        for ext in ["svg", "png"] {
            let path = out + "/plots/tiny-120." + ext
            let size = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            #expect(size > 1000, "\(path) is \(size) bytes")
        }
    }

    static var hasGnuplot: Bool {
        ["/usr/bin/gnuplot", "/usr/local/bin/gnuplot"].contains { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
