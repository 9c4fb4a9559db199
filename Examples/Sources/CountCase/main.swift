import Foundation
import SchemaLab

// The counting process: CallgrindCounter(executable: <this program>) runs it under valgrind
// as `count-case SCENARIO --variant ...`; it runs the case's timed region once.
do {
    try CountedRepetition.main(arguments: Array(CommandLine.arguments.dropFirst(2)))
} catch {
    FileHandle.standardError.write(Data("count-case: \(error)\n".utf8))
    exit(1)
}
