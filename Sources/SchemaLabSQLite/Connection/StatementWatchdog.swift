import CSQLite
import Dispatch
import Synchronization

/// Interrupts statements that run too long: armed with a time budget before a case runs its
/// workload, it calls `sqlite3_interrupt` on every open connection when the budget runs out,
/// so the running statement (a MATCHES that backtracks without end, a sort of a million rows
/// without an index) returns `SQLITE_INTERRUPT` at its next step instead of holding the run.
/// `interruptAll()` does the same at once (SIGINT). Nothing runs on the statements' path: the
/// watchdog is a timer on another thread, and `sqlite3_interrupt` only sets a flag SQLite reads
/// between opcodes (a registered function that never returns is not interrupted until it does).
package final class StatementWatchdog: Sendable {
    /// The open connections' handles (``Database`` adds and removes its own), guarded so that an
    /// interrupt never reaches a handle that is being closed.
    static let live = Mutex<Set<UInt>>([])

    private struct State {
        var generation = 0
        var fired = false
        var budget = 0.0
    }
    private let state = Mutex(State())

    package init() {}

    /// Interrupts the statements running on every open connection now.
    package static func interruptAll() {
        live.withLock { handles in
            for handle in handles {
                if let pointer = OpaquePointer(bitPattern: handle) { sqlite3_interrupt(pointer) }
            }
        }
    }

    /// Interrupts every connection's statement if ``disarm()`` is not called within `seconds`.
    package func arm(seconds: Double) {
        let generation = state.withLock { s -> Int in
            s.generation += 1
            s.fired = false
            s.budget = seconds
            return s.generation
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [self] in
            let due = state.withLock { s -> Bool in
                guard s.generation == generation else { return false }
                s.fired = true
                return true
            }
            if due { Self.interruptAll() }
        }
    }

    /// Stops the countdown; returns the budget in seconds when it had run out (the statements
    /// then running were interrupted), nil otherwise.
    @discardableResult
    package func disarm() -> Double? {
        state.withLock { s in
            s.generation += 1
            defer { s.fired = false }
            return s.fired ? s.budget : nil
        }
    }
}
