import SchemaLabEngine

/// An ``Advice`` in the app's terms, as Markdown: what to add to which entity and what it
/// buys and costs, the `<fetchIndex>` XML per entity, each workload before and after with
/// its plans, the indexes no workload uses, and how the search went.
public enum AdviceReport {
    /// The report's Markdown.
    public static func markdown(_ advice: Advice) -> String {
        var lines: [String] = []
        let unit = Self.unit(advice.basis)
        lines.append("# Index advice for \(advice.scenario), variant \(advice.variant)")
        lines.append("")
        lines.append(
            "Chosen on \(Self.basisPhrase(advice.basis)) at n = \(advice.size)\(advice.analyze ? " with ANALYZE statistics" : ""); "
                + "\(advice.candidates) candidate(s), \(advice.trials) trial(s), \(advice.cases) case(s) measured in \(advice.labRuns) run(s), \(Format.short(advice.seconds)) s."
        )
        for note in advice.notes { lines.append(""); lines.append("> \(note)") }
        lines.append("")
        lines.append("## What to change")
        lines.append("")
        if advice.additions.isEmpty && advice.removals.isEmpty {
            lines.append("Nothing: no index the search measured gains more than it costs, and no index of \(advice.variant) can go.")
        }
        for proposal in advice.additions + advice.removals {
            lines.append(sentence(proposal, unit: unit))
        }
        if !advice.additions.isEmpty || !advice.removals.isEmpty {
            lines.append("")
            let labels = (advice.additions + advice.removals).first?.checks.map(\.label) ?? []
            lines.append(
                "| change | serves | read gain | write cost | store bytes | " + labels.map { $0 + " |" }.joined(separator: " ")
                    + " origin |")
            lines.append("|---|---|---:|---:|---:|" + String(repeating: "---|", count: labels.count) + "---|")
            for proposal in advice.additions + advice.removals {
                let checks = proposal.checks.map { check in
                    "gain \(Format.number(check.readGain)), cost \(Format.number(check.writeCost))"
                        + ((check.readGain - check.writeCost > 0) != (proposal.readGain - proposal.writeCost > 0) ? " **flips**" : "")
                        + (check.serves == proposal.serves
                            ? "" : "; serves \(check.serves.isEmpty ? "none" : check.serves.joined(separator: ", "))")
                        + " |"
                }
                lines.append(
                    "| \(proposal.isRemoval ? "remove" : "add") \(proposal.description) | \(proposal.serves.joined(separator: ", ")) | "
                        + "\(Format.number(proposal.readGain)) | \(Format.number(proposal.writeCost)) | \(Format.number(Double(proposal.storeBytes))) | "
                        + checks.joined(separator: " ") + " \(proposal.origins.joined(separator: "; ")) |")
            }
            lines.append("")
            lines.append(
                "Read gain and write cost are each index's own share on the basis (\(unit)), weighted: the advised set measured with and without it."
            )
        }
        if !advice.prefetches.isEmpty {
            lines.append("")
            lines.append("## Beyond indexes: prefetching")
            lines.append("")
            lines.append(
                "Fetches whose touched objects fault through a relationship they do not prefetch, measured again in \(advice.variant) with "
                    + "`relationshipKeyPathsForPrefetching` set to those relationships:")
            lines.append("")
            lines.append("| fetch | prefetch | statements | \(unit) | weighted gain | same result | proposed |")
            lines.append("|---|---|---:|---:|---:|---|---|")
            for prefetch in advice.prefetches {
                lines.append(
                    "| \(prefetch.workload) | \(prefetch.keyPaths.joined(separator: ", ")) | \(prefetch.statementsBefore) -> \(prefetch.statementsAfter) | "
                        + "\(Format.number(prefetch.before)) -> \(Format.number(prefetch.after)) | \(Format.number(prefetch.gain)) | "
                        + "\(prefetch.sameResult ? "yes" : "**no**") | \(prefetch.proposed ? "**yes**" : "no") |")
            }
        }
        lines.append("")
        lines.append("## The whole set")
        lines.append("")
        lines.append("| | before | after | change |")
        lines.append("|---|---:|---:|---:|")
        lines.append(row("weighted reads (\(unit))", advice.readBefore, advice.readAfter))
        lines.append(row("weighted writes (\(unit))", advice.writeBefore, advice.writeAfter))
        if advice.readMsBefore > 0 {
            lines.append(row("weighted reads (median ms)", advice.readMsBefore, advice.readMsAfter, short: true))
            lines.append(row("weighted writes (median ms)", advice.writeMsBefore, advice.writeMsAfter, short: true))
        }
        lines.append(row("store bytes", Double(advice.storeBytesBefore), Double(advice.storeBytesAfter)))
        lines += saves(advice, unit: unit)
        if !advice.unusedIndexes.isEmpty {
            lines.append("")
            lines.append("Indexes of \(advice.variant) no workload's plan uses: \(advice.unusedIndexes.joined(separator: ", ")).")
        }
        let xml = (advice.additions).map { "<!-- entity \($0.entity) -->\n" + $0.fetchIndexXML }
        if !xml.isEmpty {
            lines.append("")
            lines.append("## The model's XML")
            lines.append("")
            lines.append("Paste each element into its entity in the model's `contents` (after its relationships):")
            lines.append("")
            lines.append("```xml")
            lines += xml
            lines.append("```")
        }
        lines.append("")
        lines.append("## Every workload")
        lines.append("")
        lines.append("| workload | weight | \(unit) before | after | median ms before (95% interval) | after | p | same result |")
        lines.append("|---|---:|---:|---:|---:|---:|---:|---|")
        for change in advice.workloads {
            lines.append(
                "| \(change.workload)\(change.isRead ? "" : " (write)") | \(Format.short(change.weight))\(change.perRunDivisor > 1 ? " per object" : "") | "
                    + "\(Format.number(change.before)) | \(Format.number(change.after)) | "
                    + "\(Format.short(change.msBefore)) (\(Format.short(change.intervalBefore.lowerBound))-\(Format.short(change.intervalBefore.upperBound))) | "
                    + "\(Format.short(change.msAfter)) (\(Format.short(change.intervalAfter.lowerBound))-\(Format.short(change.intervalAfter.upperBound))) | "
                    + "\(Format.pValue(change.pValue)) | \(change.sameResult ? "yes" : "**no**") |")
        }
        lines.append("")
        for change in advice.workloads where change.plansBefore != change.plansAfter || change.scansThroughIndex {
            lines.append(
                "- \(change.workload): before `\(change.plansBefore.joined(separator: " | "))`; after `\(change.plansAfter.joined(separator: " | "))`"
                    + (change.scansThroughIndex ? " (reads the whole table through an index: a scan in index order)" : ""))
        }
        lines.append("")
        lines.append("## How the search went")
        lines.append("")
        lines += advice.steps.map { "- " + $0 }
        if advice.steps.isEmpty { lines.append("- no step gained more than the threshold") }
        if !advice.declined.isEmpty {
            lines.append("")
            lines.append("Measured and not kept:")
            lines.append("")
            lines += advice.declined.map { "- " + $0 }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// What each write costs per save before and after, on the basis, in SQLite's VM steps,
    /// in pages written to the store and in time: the cost an app pays for the indexes.
    static func saves(_ advice: Advice, unit: String) -> [String] {
        let writes = advice.workloads.filter { !$0.isRead && $0.savesPerRun > 0 }
        guard !writes.isEmpty else { return [] }
        let onSteps = advice.basis == .vmSteps
        var lines = [
            "", "## What each save costs", "",
            "Per save (a batch request counts as one), before -> after:", "",
            "| write | saves per run |" + (onSteps ? "" : " \(unit) |") + " VM steps | pages written | median ms |",
            "|---|---:|" + (onSteps ? "" : "---:|") + "---:|---:|---:|",
        ]
        for change in writes {
            let saves = Double(change.savesPerRun)
            // Counts per save: whole when they divide evenly, else with one decimal.
            func count(_ value: Double) -> String {
                let each = value / saves
                return each == each.rounded() ? Format.number(each) : String(format: "%.1f", each)
            }
            func pair(_ before: Double, _ after: Double) -> String { "\(count(before)) -> \(count(after))" }
            lines.append(
                "| \(change.workload) | \(change.savesPerRun) |" + (onSteps ? "" : " \(pair(change.before, change.after)) |")
                    + " \(pair(Double(change.vmStepsBefore), Double(change.vmStepsAfter))) | "
                    + "\(pair(Double(change.pagesWrittenBefore), Double(change.pagesWrittenAfter))) | "
                    + "\(Format.short(change.msBefore / saves)) -> \(Format.short(change.msAfter / saves)) |")
        }
        return lines
    }

    /// "Add fetch index byLikesDate (likes DESC, date DESC) to entity Photo: frc-sections, frc-batched faster by …; saves slower by …."
    static func sentence(_ proposal: IndexProposal, unit: String) -> String {
        let keys = proposal.elements.map { $0.key + ($0.descending ? " DESC" : "") }.joined(separator: ", ")
        let serves = proposal.serves.isEmpty ? "the reads" : proposal.serves.joined(separator: ", ")
        if proposal.isRemoval {
            return
                "- **Remove** fetch index \(proposal.name) (\(keys)) from entity \(proposal.entity): "
                + "saves \(by(-proposal.writeCost, unit, less: "cheaper", more: "dearer")), reads \(by(-proposal.readGain, unit, less: "slower", more: "faster")) (weighted)."
        }
        return
            "- **Add** fetch index \(proposal.name) (\(keys)) to entity \(proposal.entity): \(serves) faster by \(Format.number(proposal.readGain)) \(unit), "
            + "saves \(by(proposal.writeCost, unit, less: "slower", more: "faster")) (weighted)"
            + (proposal.flips ? "; its value flips \(flipping(proposal).joined(separator: " and "))." : ".")
    }

    /// The checks under which `proposal`'s net gain has the other sign: `with ANALYZE`, `at n = 250`.
    static func flipping(_ proposal: IndexProposal) -> [String] {
        proposal.checks.filter { ($0.readGain - $0.writeCost > 0) != (proposal.readGain - proposal.writeCost > 0) }.map { check in
            check.label.hasPrefix("n = ") ? "at " + check.label : check.label
        }
    }

    /// "slower by 4,436 instructions" for a positive `amount`, "faster by 658 instructions" for a
    /// negative one (a save whose own fetch the index serves), "unchanged" for none.
    static func by(_ amount: Double, _ unit: String, less: String, more: String) -> String {
        if amount == 0 { return "unchanged" }
        return "\(amount > 0 ? less : more) by \(Format.number(abs(amount))) \(unit)"
    }

    /// What a cost on `basis` counts: `instructions`, `VM steps`, `ms`.
    static func unit(_ basis: AdviceBasis) -> String {
        switch basis {
        case .instructions: return "instructions"
        case .vmSteps: return "VM steps"
        case .time: return "ms"
        }
    }

    static func basisPhrase(_ basis: AdviceBasis) -> String {
        switch basis {
        case .instructions: return "instructions counted by callgrind (the same on every run)"
        case .vmSteps: return "SQLite's VM steps (the same on every run; blind to work outside SQLite's virtual machine)"
        case .time: return "median time"
        }
    }

    private static func row(_ label: String, _ before: Double, _ after: Double, short: Bool = false) -> String {
        let change = before != 0 ? Format.percent(after / before - 1) : "-"
        return
            "| \(label) | \(short ? Format.short(before) : Format.number(before)) | \(short ? Format.short(after) : Format.number(after)) | \(change) |"
    }
}
