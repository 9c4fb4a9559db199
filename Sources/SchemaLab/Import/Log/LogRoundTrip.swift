import Foundation
import SchemaLabEngine

/// The import's check of its own work: every rebuilt request is issued again by the lab (a
/// small run of the scenario on the `as-is` variant) and its statement compared with the
/// logged one by shape (``StatementShape``: token by token, whitespace and `IN` list lengths
/// aside). A request that does not check, does not run, or issues other SQL goes back to the
/// logged statement as raw SQL, with the difference as its reason.
package struct LogRoundTrip {
    /// What the round trip found for one rebuilt workload.
    package enum Outcome: Sendable, Equatable {
        /// The lab issued the logged statement (and every window or fault that followed it).
        case identical
        /// The lab issued the logged statement, but not every follower's shape.
        case identicalButFollowers(missing: [String])
        /// The lab issued other SQL (the closest statement it issued).
        case differs(lab: String)
        /// The request does not check against the scenario, or its case failed.
        case failed(String)
    }

    /// The variant the requests run on.
    let variant: String
    /// Rows of the data set the round trip fills (small: it checks SQL, not speed).
    let size: Int

    package init(variant: String = "as-is", size: Int = 40) {
        self.variant = variant
        self.size = size
    }

    /// The outcome of each rebuilt entry (by workload name) of `entries` in `scenario`
    /// (whose workloads are ignored: the entries' are run).
    package func check(_ entries: [LogWorkloads.Entry], in scenario: Scenario) -> [String: Outcome] {
        var outcomes: [String: Outcome] = [:]
        var runnable: [WorkloadSpec] = []
        for entry in entries where entry.rawReason == nil {
            var single = scenario
            single.workloads = [entry.workload]
            single.claims = []
            single.assertions = []
            do {
                _ = try ScenarioPlan(ScenarioDecoder.check(single))
                runnable.append(entry.workload)
            } catch {
                outcomes[entry.workload.name] = .failed("\(error)")
            }
        }
        guard !runnable.isEmpty else { return outcomes }
        var trial = scenario
        trial.workloads = runnable
        trial.claims = []
        trial.assertions = []
        let result: RunResult
        do {
            result = try Lab.run(
                trial, options: RunOptions(sizes: [size], repetitions: 1, warmup: 0, variants: [variant], workloads: runnable.map(\.name)))
        } catch {
            for w in runnable { outcomes[w.name] = .failed("\(error)") }
            return outcomes
        }
        for failure in result.failures { outcomes[failure.key.workload] = .failed(failure.failure.message) }
        for entry in entries where entry.rawReason == nil && outcomes[entry.workload.name] == nil {
            guard let measured = result.cases.first(where: { $0.workload == entry.workload.name }) else {
                outcomes[entry.workload.name] = .failed("the run measured no case of it")
                continue
            }
            let issued = measured.plans.map { StatementShape.of($0.sql) }
            let logged = entry.shape.key
            if issued.contains(logged) {
                let missing = entry.shape.followers.filter { follower in !issued.contains(follower) && !Self.windowMatches(follower, issued)
                }
                outcomes[entry.workload.name] = missing.isEmpty ? .identical : .identicalButFollowers(missing: missing.sorted())
            } else {
                let closest = measured.plans.map(\.sql).min {
                    Self.difference(logged, StatementShape.of($0)) < Self.difference(logged, StatementShape.of($1))
                }
                outcomes[entry.workload.name] = .differs(lab: closest ?? "(no statement)")
            }
        }
        return outcomes
    }

    /// A window's shape matches when only its LIMIT differs (the last window of a result is shorter).
    static func windowMatches(_ follower: String, _ issued: [String]) -> Bool {
        func withoutLimit(_ s: String) -> String {
            guard let range = s.range(of: " LIMIT ", options: .backwards) else { return s }
            return String(s[..<range.lowerBound])
        }
        let bare = withoutLimit(follower)
        return issued.contains { withoutLimit($0) == bare }
    }

    /// How far two shapes are apart, in differing tokens (a rough measure to pick the closest).
    static func difference(_ a: String, _ b: String) -> Int {
        let x = a.split(separator: " "), y = b.split(separator: " ")
        return zip(x, y).filter { $0 != $1 }.count + abs(x.count - y.count)
    }
}
