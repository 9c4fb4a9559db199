import Dispatch
import Foundation
import SchemaLabEngine
import Synchronization

/// The progress of a run without a terminal (CI, `make bench > log`): a line at least every
/// `interval` seconds, from a timer, so that a case or an interleaved size that takes minutes
/// is never minutes of silence: `schemalab: progress: 12 of 40 cases done, 28 left, 45% of
/// the repetitions, 1:23 elapsed; now V1 fetch-sorted n=1000: repetition 3`.
///
/// `@unchecked Sendable`: the progress and the time of the last line are behind a mutex; the
/// timer is set up once in `init`, and cancelling it is safe from any thread.
final class ProgressLog: @unchecked Sendable {
    private let state: Mutex<(progress: RunProgress?, lastLine: Date)>
    private let start = Date()
    private let interval: Double
    private let timer: DispatchSourceTimer
    private let write: @Sendable (String) -> Void

    /// Starts the timer; `write` prints a line (the console's note).
    init(interval: Double, write: @escaping @Sendable (String) -> Void) {
        self.interval = interval
        self.write = write
        state = Mutex((nil, Date()))
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue.global(qos: .utility))
        let leeway = DispatchTimeInterval.milliseconds(Int(min(1000, interval * 100)))
        timer.schedule(deadline: .now() + interval, repeating: interval, leeway: leeway)
        timer.setEventHandler { [weak self] in self?.tick() }
        timer.resume()
    }

    /// The run's latest progress.
    func update(_ progress: RunProgress) {
        state.withLock { $0.progress = progress }
    }

    /// Stops the timer (the run is over).
    func stop() { timer.cancel() }

    deinit { timer.cancel() }

    private func tick() {
        let line: String? = state.withLock { s in
            guard let p = s.progress, Date().timeIntervalSince(s.lastLine) >= interval * 0.9 else { return nil }
            s.lastLine = Date()
            return Self.line(p, elapsed: Date().timeIntervalSince(start))
        }
        if let line { write(line) }
    }

    /// The line for `progress` after `elapsed` seconds.
    static func line(_ progress: RunProgress, elapsed: Double) -> String {
        let now = progress.now.isEmpty ? "" : "; now \(progress.now)"
        return "schemalab: progress: \(progress.casesDone) of \(progress.cases) cases done, \(progress.cases - progress.casesDone) left, "
            + "\(Int(progress.fraction * 100))% of the repetitions, \(ProgressLine.clock(elapsed)) elapsed\(now)"
    }
}
