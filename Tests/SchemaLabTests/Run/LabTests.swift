import Foundation
import Synchronization
import Testing
@testable import SchemaLab
@testable import SchemaLabEngine
import SchemaLabTestSupport

/// The run API as a package of one's own would call it: ``Lab/run(_:options:observer:)``
/// returns every case's typed measurements, checks, plans and the claims judged on them,
/// tells an observer as it goes, takes an injected instruction counter, and leaves no file.
@Suite("Lab.run: a typed run in memory")
struct LabTests {
    static let claimsScenario = TestSupport.packageRoot + "/Tests/Fixtures/tiny-claims.json"

    /// A counter that counts nothing: each case's "instructions" are a fixed function of its
    /// names, so a test can tell they went where they should.
    final class FakeCounter: InstructionCounting {
        let requests = Mutex<[CountRequest]>([])
        func unavailable() -> String? { nil }
        func count(_ request: CountRequest) throws -> InstructionCount {
            requests.withLock { $0.append(request) }
            let total: Int64 = request.variant == "flat+index" ? 1_000 : 4_000
            return InstructionCount(total: total, sqlite: total / 2)
        }
    }

    @Test("A run returns every case, checked against the reference, with plans, and its claims judged; it writes nothing")
    func runInMemory() throws {
        let scenario = try ScenarioDecoder.load(path: Self.claimsScenario)
        let log = EventLog()
        let result = try Lab.run(scenario, options: RunOptions(sizes: [80], repetitions: 2), observer: log)
        #expect(result.cases.count == 12)
        #expect(result.failures.isEmpty && !result.stoppedAtFailure)
        #expect(result.cases.filter { $0.variant == "flat" }.allSatisfy { $0.referenceCheck == .reference })
        #expect(result.cases.filter { $0.variant != "flat" }.allSatisfy { $0.referenceCheck == .same })
        let sections = try #require(result.result(variant: "flat+index", workload: "sections", size: 80))
        #expect(sections.plans.contains { $0.planLines.contains { $0.contains("USING INDEX") } }, "\(sections.plans)")
        #expect(sections.counters.sorts == 0)
        #expect(result.claims.map(\.claim.id) == ["index-sections", "index-no-sort", "index-fewer-statements", "split-scans-less"])
        #expect(result.claim("index-no-sort")?.verdict == .holds)
        let statements = result.claim("index-fewer-statements")?.verdict
        #expect(statements == .reversed || statements == .withinNoise)
        #expect(result.fills.count == 3)
        #expect(log.events.first == "start 12 cases")
        #expect(log.events.filter { $0.hasPrefix("finish") }.count == 12)
        #expect(log.events.filter { $0.hasPrefix("fill") }.count == 3)
        #expect(result.snapshot.order.count == 12)
    }

    @Test("An injected counter counts each case; a time claim is then judged on instructions")
    func injectedCounter() throws {
        let scenario = try ScenarioDecoder.load(path: Self.claimsScenario)
        let counter = FakeCounter()
        var options = RunOptions(sizes: [60], repetitions: 1, variants: ["flat", "flat+index"], workloads: ["sections"])
        options.instructionCounter = counter
        let result = try Lab.run(scenario, options: options)
        #expect(result.cases.map(\.instructions?.total).sorted { ($0 ?? 0) < ($1 ?? 0) } == [1_000, 4_000])
        let requests = counter.requests.withLock { $0 }
        #expect(requests.count == 2)
        #expect(requests.allSatisfy { $0.scenarioFile == "scenario.json" && $0.filledStore != nil && $0.size == 60 })
        let claim = try #require(result.claim("index-sections"))
        #expect(claim.headline?.basis == .instructions)
        #expect(claim.headline?.interval.ratio == 0.25)
    }

    @Test("Bad options are refused before anything runs, with no flag in the message")
    func refusals() throws {
        let scenario = try ScenarioDecoder.load(path: Self.claimsScenario)
        let log = EventLog()
        #expect {
            _ = try Lab.run(scenario, options: RunOptions(variants: ["nope"]), observer: log)
        } throws: { error in
            let message = (error as? OperationError)?.message ?? ""
            return message.contains("no variant 'nope'") && message.contains("has: flat, flat+index, split") && !message.contains("--")
        }
        #expect { _ = try Lab.run(scenario, options: RunOptions(repetitions: 0)) } throws: { ($0 as? OperationError)?.status == .badInput }
        #expect(log.events.isEmpty)
    }

    @Test("The async run gives the same cases; cancelling its task stops it with a CancellationError")
    func asyncAndCancel() async throws {
        let scenario = try ScenarioDecoder.load(path: Self.claimsScenario)
        let result = try await Lab.run(scenario, options: RunOptions(sizes: [60], repetitions: 1, workloads: ["by-created"]))
        #expect(result.cases.count == 3)
        let task = Task { try await Lab.run(scenario, options: RunOptions(sizes: [4_000], repetitions: 50)) }
        try await Task.sleep(nanoseconds: 300_000_000)
        task.cancel()
        await #expect(throws: CancellationError.self) { _ = try await task.value }
    }
}
