import Foundation
import Testing
@testable import SchemaLabEngine
import SchemaLabTestSupport

/// The instructions a case reports, read from callgrind's output.
@Suite("Measurement: instruction counts")
struct MeasurementTests {
    @Test("The callgrind parser sums libsqlite3's self cost and its C library calls, and leaves out its calls back into the lab")
    func callgrindParser() {
        let text = """
            events: Ir
            ob=/usr/lib/libsqlite3.so.0
            fl=sqlite3.c
            fn=sqlite3VdbeExec
            10 100
            cob=/app/schemalab
            cfn=callback
            calls=1 20
            12 5000
            13 50
            cob=/usr/lib/x86_64-linux-gnu/libc.so.6
            cfn=pthread_mutex_lock
            calls=1 30
            14 40
            cfn=sqlite3VdbeSerialGet
            calls=1 40
            15 7
            ob=/app/schemalab
            fn=callback
            20 5000
            cob=/usr/lib/x86_64-linux-gnu/libc.so.6
            cfn=malloc
            calls=1 30
            21 60
            ob=/usr/lib/x86_64-linux-gnu/libc.so.6
            fn=pthread_mutex_lock
            30 40
            fn=malloc
            31 60
            totals: 10250
            """
        // 100 + 50 of its own and the 40 of the mutex it locks; the 7 of its own callee are
        // already its own function's self cost elsewhere, the callback and its malloc are the lab's.
        #expect(CallgrindCounter.parse(text) == InstructionCount(total: 10250, sqlite: 190))
        #expect(CallgrindCounter.parse("events: Ir\n") == nil)
    }
}
