import Foundation
import SchemaLabCoreData
import SchemaLabEngine

extension RunReport {
    /// Asks `.expert` about every statement of the run that scans a table or sorts, each
    /// against an empty store of its variant made in `workDirectory` from `plan` (the
    /// run's scenario). Returns how many statements got advice.
    @discardableResult
    package mutating func gatherAdvice(plan: ScenarioPlan, advisor: IndexAdvisor, workDirectory: String) throws -> Int {
        var count = 0
        for (variant, statements) in costlyStatements.sorted(by: { $0.key < $1.key }) {
            guard let model = plan.models.first(where: { $0.variant == variant }) else { continue }
            let tag = variant.map { $0.isLetter || $0.isNumber ? String($0) : "_" }.joined()
            let path = workDirectory + "/advice-\(tag).sqlite"
            Store.remove(path: path)
            defer { Store.remove(path: path) }
            _ = try Store.create(path: path, model: model, pragmas: plan.scenario.pragmas)
            for sql in statements.sorted() {
                advice[Self.adviceKey(variant, sql)] = advisor.advise(sql: sql, database: path)
                count += 1
            }
        }
        return count
    }
}
