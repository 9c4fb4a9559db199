import Foundation
import Testing
@testable import SchemaLabEngine
@testable import SchemaLabSQLite
@testable import SchemaLab
import SchemaLabTestSupport

/// The operations the CLI calls, called in process as a package of one's own would: what they
/// print goes to a `CollectingConsole`, and what refuses the input is an `OperationError` with
/// the exit status the CLI gives it, thrown before anything is written.
@Suite("Operations: library calls, their output and their refusals")
struct OperationsTests {
    @Test("validate: a line per good file, a note per bad one (a directory said to be one), the number of bad files")
    func validation() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let console = CollectingConsole()
        let invalid = try ScenarioValidation.validate([TestSupport.tinyScenario, dir, dir + "/missing.json"], console: console)
        #expect(invalid == 2)
        #expect(console.printed == ["\(TestSupport.tinyScenario): ok (3 variants x 4 workloads x 1 size)"])
        #expect(console.notes.count == 2)
        #expect(
            console.notes.first?.contains("\(dir): $: cannot read the file: it is a directory, not a scenario file") ?? false,
            "\(console.notes)")
        #expect(console.notes.last?.contains("missing.json: $: cannot read the file: no such file") ?? false, "\(console.notes)")
    }

    @Test("run and resume refuse bad input with exit 2 before they create anything")
    func refusals() throws {
        let dir = try TestSupport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let workspace = try RunWorkspace()
        defer { workspace.remove() }
        let job = RecordedRun(workspace: workspace)
        let observer = EventLog()
        var options = RunOptions(variants: [])
        func start() throws {
            _ = try job.start(scenario: TestSupport.tinyScenario, out: dir + "/out", replace: false, options: options, observer: observer)
        }
        #expect {
            try start()
        } throws: { error in
            guard let error = error as? OperationError else { return false }
            return error.status == .badInput && error.message.contains("the selection of variants is empty")
                && !error.message.contains("--")
        }
        options.variants = nil
        options.workloads = ["nope"]
        #expect { try start() } throws: { ($0 as? OperationError)?.message.contains("no workload 'nope'") ?? false }
        #expect(!FileManager.default.fileExists(atPath: dir + "/out"))
        #expect {
            _ = try job.resume(dir, instructionCounter: nil, checksFit: true, observer: observer)
        } throws: { error in
            guard let error = error as? OperationError else { return false }
            return error.status == .badInput && error.message.contains("has no run.json")
        }
        #expect(observer.events.isEmpty, "nothing started: \(observer.events)")
    }

    @Test("Library errors map to their kinds: bad input, failure, regression, no baseline")
    func statuses() {
        let scenario = ScenarioError(file: "s.json", path: "$.x", message: "bad")
        #expect(OperationError.from(scenario).status == .badInput)
        #expect(OperationError.from(FileError(path: "p", message: "taken", isBadInput: true)).status == .badInput)
        #expect(OperationError.from(FileError(path: "p", message: "disk full")).status == .failed)
        #expect(OperationError.from(SQLiteError(code: 19, message: "constraint")).status == .failed)
        #expect(OperationError.from(OperationError(.failed, "x", remedy: .resume("d")), status: .badInput).remedy == .resume("d"))
    }
}

/// Every event a run tells, in words, in order.
final class EventLog: RunObserver, @unchecked Sendable {
    var events: [String] = []
    func runWillStart(_ plan: RunPlan) throws { events.append("start \(plan.cases.count) cases") }
    func runDidFill(_ fill: FillMeasurement) throws { events.append("fill \(fill.variant) \(fill.size)") }
    func runDidFinish(_ result: CaseResult) throws { events.append("finish \(result.variant) \(result.workload) \(result.size)") }
    func runDidFail(_ key: CaseKey, _ failure: CaseFailure) throws { events.append("fail \(key): \(failure.message)") }
    func runWillMeasureAgain(_ cases: [CaseKey], round: Int, reason: String) { events.append("again \(round)") }
}
