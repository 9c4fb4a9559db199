import ArgumentParser
import Foundation
import SchemaLab

struct PlotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plot",
        abstract: "Renders a run's results.csv with gnuplot (plots/bars.gp) to SVG and PNG.",
        discussion: "Writes <dir>/plots/<scenario>-<size>.svg and .png, one pair per data set size."
    )

    @Argument(help: "A directory written by `schemalab run`.")
    var directory: String

    @Option(name: .long, help: "The gnuplot script.")
    var script = "plots/bars.gp"

    @Option(name: .long, help: "The gnuplot executable.")
    var gnuplot = "gnuplot"

    func run() throws {
        let csvPath = directory + "/results.csv"
        guard let text = try? String(contentsOfFile: csvPath, encoding: .utf8) else {
            throw fail("cannot read \(csvPath): run `schemalab run ... --out \(directory)` first", code: 2)
        }
        guard FileManager.default.fileExists(atPath: script) else {
            throw fail("no gnuplot script at \(script) (run from the repository root, or pass --script)", code: 2)
        }
        if let state = try? RunDirectory.readState(at: directory), state.state != .complete {
            note("schemalab: \(directory) is \(state.state.rawValue) (\(state.done.count) of \(state.cases.count) cases): plotting the cases it has; `schemalab run --resume \(directory)` finishes it")
        }
        let records = CSVWriter.parse(text)
        guard let header = records.first, header == ResultsFiles.resultsHeader else {
            throw fail("\(csvPath) does not have the results.csv header this build writes", code: 2)
        }
        let rows = records.dropFirst().filter { $0.count == header.count }
        let col = { (name: String) in header.firstIndex(of: name)! }
        guard let scenario = rows.first?[col("scenario")] else { throw fail("\(csvPath) has no results", code: 2) }
        func ordered(_ name: String, _ index: String) -> [String] {
            var seen: [Int: String] = [:]
            for r in rows { seen[Int(r[col(index)]) ?? 0] = r[col(name)] }
            return seen.keys.sorted().map { seen[$0]! }
        }
        let variants = ordered("schema", "schema_index"), workloads = ordered("workload", "workload_index")
        let sizes = Array(Set(rows.compactMap { Int($0[col("size")]) })).sorted()
        let outDir = directory + "/plots"
        try FileManager.default.createDirectory(atPath: outDir, withIntermediateDirectories: true)
        for size in sizes {
            let outbase = "\(outDir)/\(scenario)-\(size)"
            let vars = "datafile='\(csvPath)'; outbase='\(outbase)'; variants='\(variants.joined(separator: " "))'; "
                + "workloads='\(workloads.joined(separator: " "))'; size=\(size); title='\(scenario)'"
            try runGnuplot(vars, script, csvPath)
            print("\(outbase).svg\n\(outbase).png")
        }
        // Cases with reads (readers under a writer, box sets): their latencies, per variant and size.
        let latencyScript = URL(fileURLWithPath: script).deletingLastPathComponent().path + "/latency.gp"
        guard FileManager.default.fileExists(atPath: latencyScript) else { return }
        for size in sizes {
            for variant in variants where rows.contains(where: { $0[col("schema")] == variant && Int($0[col("size")]) == size && !$0[col("reads")].isEmpty }) {
                let outbase = "\(outDir)/\(scenario)-\(size)-\(variant)-reads"
                let readers = workloads.filter { w in rows.contains { $0[col("workload")] == w && !$0[col("reads")].isEmpty } }
                let vars = "datafile='\(csvPath)'; outbase='\(outbase)'; variant='\(variant)'; "
                    + "workloads='\(readers.joined(separator: " "))'; size=\(size); title='\(scenario)'"
                try runGnuplot(vars, latencyScript, csvPath)
                print("\(outbase).svg\n\(outbase).png")
            }
        }
    }

    private func runGnuplot(_ vars: String, _ script: String, _ csvPath: String) throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = [gnuplot, "-e", vars, script]
        do { try p.run() } catch { throw fail("cannot run \(gnuplot): \(error) (install gnuplot, or run `make setup`)", code: 1) }
        p.waitUntilExit()
        guard p.terminationStatus == 0 else { throw fail("gnuplot failed on \(csvPath) (status \(p.terminationStatus))", code: 1) }
    }
}
