import Foundation
import SchemaLabEngine

/// `schemalab advise`: runs ``Advisor`` on a scenario file and writes what a developer pastes:
/// the scenario with the `advised` variant (`out`), the report (`report`), and a copy of the
/// model's `contents` with the fetch indexes changed (`modelOut`, from `model`). Every output
/// path is checked before anything is measured, so a long advice never ends unable to write.
package struct AdviceWriting {
    package var scenario: String
    package var options: AdviceOptions
    package var out: String?
    package var report: String?
    package var model: String?
    package var modelOut: String?
    package var replace = false

    package init(scenario: String, options: AdviceOptions) {
        self.scenario = scenario
        self.options = options
    }

    /// Advises, prints the summary to `console`, writes the files; returns the advice.
    @discardableResult
    package func perform(console: any Console) throws(OperationError) -> Advice {
        let loaded: Scenario
        do { loaded = try ScenarioDecoder.load(path: scenario) } catch { throw OperationError.from(error) }
        var contents: String?
        if let model {
            let file: String
            do { file = try ModelSource.contentsFile(in: model) } catch { throw OperationError.from(error) }
            guard let data = FileManager.default.contents(atPath: file), let text = String(data: data, encoding: .utf8) else {
                throw OperationError(.badInput, "cannot read the model's contents at \(file)")
            }
            contents = text
        }
        let modelPath = model.map { modelOut ?? Self.defaultModelOut(model: $0) }
        for path in [out, report, modelPath.map { $0 + "/contents" }].compactMap({ $0 })
        where FileManager.default.fileExists(atPath: path) && !replace {
            throw OperationError(.badInput, "\(path) exists", remedy: .replace)
        }
        struct Progress: AdviceObserver {
            let console: any Console
            func adviceDidProgress(_ line: String) { console.note(line) }
        }
        let advice: Advice
        do { advice = try Advisor.advise(loaded, options: options, observer: Progress(console: console)) } catch {
            throw OperationError.from(error, status: .failed)
        }
        tell(advice, console: console)
        let markdown = AdviceReport.markdown(advice)
        if let report { try write(markdown, to: report) }
        if let out {
            guard let advised = advice.advisedScenario else {
                console.note("nothing advised: \(out) not written")
                return advice
            }
            let text = ScenarioEncoder.text(advised)
            do { _ = try ScenarioDecoder.decode(text: text, file: out) } catch {
                throw OperationError(.failed, "the advised scenario does not validate, so it was not written: \(error)")
            }
            try write(text, to: out)
            console.note("wrote \(out) (variant \(advice.advisedVariant))")
        }
        if let contents, let modelPath {
            let changed = try FetchIndexXML.apply(
                to: contents, additions: advice.additions.map { ($0.entity, $0.fetchIndexXML) },
                removals: advice.removals.map { ($0.entity, $0.name) })
            try write(changed, to: modelPath + "/contents")
            console.note("wrote \(modelPath)/contents (a copy of the model with the fetch indexes changed)")
        }
        return advice
    }

    /// `Model-advised.xcdatamodel` in the current directory.
    static func defaultModelOut(model: String) -> String {
        var name = URL(fileURLWithPath: model).lastPathComponent
        if name == "contents" { name = URL(fileURLWithPath: model).deletingLastPathComponent().lastPathComponent }
        let base = name.split(separator: ".").first.map(String.init) ?? "model"
        return "\(base)-advised.xcdatamodel"
    }

    private func tell(_ advice: Advice, console: any Console) {
        let unit = AdviceReport.unit(advice.basis)
        for note in advice.notes { console.note("note: \(note)") }
        if advice.additions.isEmpty && advice.removals.isEmpty {
            console.print("advice for \(advice.variant): no index to add or remove (measured \(advice.trials) trial(s))")
        }
        for proposal in advice.additions + advice.removals {
            console.print(String(AdviceReport.sentence(proposal, unit: unit).dropFirst(2)).replacingOccurrences(of: "**", with: ""))
        }
        for prefetch in advice.prefetches where prefetch.proposed {
            console.print(
                "Prefetch \(prefetch.keyPaths.joined(separator: ", ")) in \(prefetch.workload) (relationshipKeyPathsForPrefetching): "
                    + "\(prefetch.statementsBefore) statements -> \(prefetch.statementsAfter), faster by \(Format.number(prefetch.gain)) \(unit) (weighted)."
            )
        }
        if advice.readBefore > 0 {
            console.print(
                "weighted reads \(Format.number(advice.readBefore)) -> \(Format.number(advice.readAfter)) \(unit) (\(Format.percent(advice.readAfter / advice.readBefore - 1))), "
                    + "writes \(Format.number(advice.writeBefore)) -> \(Format.number(advice.writeAfter)) "
                    + "(\(advice.writeBefore > 0 ? Format.percent(advice.writeAfter / advice.writeBefore - 1) : "-")); timed medians: reads "
                    + "\(Format.short(advice.readMsBefore)) -> \(Format.short(advice.readMsAfter)) ms, writes \(Format.short(advice.writeMsBefore)) -> \(Format.short(advice.writeMsAfter)) ms"
            )
        }
        for proposal in advice.additions {
            console.print("\n<!-- entity \(proposal.entity) -->\n\(proposal.fetchIndexXML)")
        }
        if !advice.unusedIndexes.isEmpty { console.print("\nunused by every workload: \(advice.unusedIndexes.joined(separator: ", "))") }
        console.note(
            "\(advice.candidates) candidate(s), \(advice.trials) trial(s), \(advice.cases) case(s) in \(advice.labRuns) run(s), \(Format.short(advice.seconds)) s"
        )
    }

    private func write(_ text: String, to path: String) throws(OperationError) {
        do {
            try FileManager.default.createDirectory(
                at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw OperationError(.failed, "cannot write \(path): \(error.localizedDescription)")
        }
    }
}
