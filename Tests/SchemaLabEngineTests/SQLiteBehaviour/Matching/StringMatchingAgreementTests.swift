import Foundation
import Testing
@testable import SchemaLabSQLite
import SchemaLabEngine

/// StringMatching's and PatternMatching's fast paths (SchemaLabSQLite/Matching) checked on seeded random strings.
/// Here, not in SchemaLabSQLiteTests, for the seeded generator: SplitMix64 is the engine's.
@Suite("String matching's fast paths: agreement with Foundation and with the character path")
struct StringMatchingAgreementTests {
    /// Random ASCII strings, including CR LF, digits and punctuation.
    static func randomStrings(count: Int, seed: UInt64) -> [String] {
        var rng = SplitMix64(seed: seed)
        let alphabet = Array("aAbB zZ_[09 12\r\n")
        return (0..<count).map { _ in
            let n = Int(rng.next() % 6)
            return String((0..<n).map { _ in alphabet[Int(rng.next() % UInt64(alphabet.count))] })
        }
    }

    @Test("The ASCII fast paths agree with Foundation", arguments: [0, 1, 8, 9, 12, 13, 64, 65, 128, 257, 385, 385 | 8, 385 | 12, 4])
    func asciiFastPathsAgreeWithFoundation(_ options: Int) {
        let texts = Self.randomStrings(count: 150, seed: 7)
        let patterns = Self.randomStrings(count: 40, seed: 11).filter { !$0.isEmpty } + ["a", "A", "1", "\r", "\n", "\r\n"]
        let foundationOptions = String.CompareOptions(rawValue: UInt(options))
        var mismatches: [String] = []
        for text in texts {
            for pattern in patterns {
                let fast = StringMatching.search(text, for: pattern, options: options)
                let foundation = text.range(of: pattern, options: foundationOptions) != nil
                if fast != foundation { mismatches.append("search \(text.debugDescription) \(pattern.debugDescription)") }
                let order = StringMatching.compare(text, pattern, options: options)
                let expected = text.compare(pattern, options: foundationOptions)
                if order != [.orderedAscending: -1, .orderedSame: 0, .orderedDescending: 1][expected] {
                    mismatches.append("compare \(text.debugDescription) \(pattern.debugDescription)")
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
    }

    @Test("LIKE's ASCII byte path agrees with its character path", arguments: [0, 1, 2, 3])
    func likeFastPathAgreesWithCharacterPath(_ flags: Int) {
        let texts = Self.randomStrings(count: 150, seed: 3).map { $0.replacingOccurrences(of: "\r", with: "") }
        let patterns =
            Self.randomStrings(count: 60, seed: 5).map {
                $0.replacingOccurrences(of: "\r", with: "").replacingOccurrences(of: "0", with: "*").replacingOccurrences(
                    of: "9", with: "?")
            } + ["*", "?", "*a*", "A?*", "\\*"]
        var mismatches: [String] = []
        for pattern in patterns {
            let like = PatternMatching.Like(pattern, options: flags)
            #expect(like.asciiTokens != nil)
            for text in texts {
                let fast = like.matches(text)
                let slow = PatternMatching.Like.glob(Array(StringMatching.fold(text, options: like.foldOptions)), like.tokens) { $0 }
                if fast != slow { mismatches.append("\(text.debugDescription) LIKE \(pattern.debugDescription)") }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
    }
}
