import Foundation

/// NSPredicate's LIKE and MATCHES patterns (`NSCoreDataLike`, `NSCoreDataMatches`),
/// compiled once (the SQLite functions cache them per statement) and matched per row.
///
/// Options are `NSComparisonPredicate.Options` bits: 1 `[c]` case-insensitive,
/// 2 `[d]` diacritic-insensitive, 4 `[n]` normalized. `[n]` says the strings are
/// already folded, so no folding is done and `[c]`/`[d]` are ignored.
/// Folding is Foundation's `folding(options:locale:)` with no locale (see
/// `StringMatching` for what it does to `ß`, `İ`, `ﬁ`, `É`).
package enum PatternMatching {
    /// `[c]`.
    package static let caseInsensitive = 1
    /// `[d]`.
    package static let diacriticInsensitive = 2
    /// `[n]`.
    package static let normalized = 4

    /// The `StringMatching` folding options for predicate options `options`.
    static func foldOptions(_ options: Int) -> Int {
        if options & normalized != 0 { return 0 }
        return (options & caseInsensitive != 0 ? StringMatching.caseInsensitive : 0)
            | (options & diacriticInsensitive != 0 ? StringMatching.diacriticInsensitive : 0)
    }

    /// A LIKE pattern: `*` matches any run of characters (also none), `?` exactly one,
    /// `\` makes the next character literal (a trailing `\` is a literal backslash);
    /// the whole text must match.
    ///
    /// With `[c]`/`[d]` the text and the pattern's literal parts are folded first and
    /// matched character by character, so `?` stands for one character of the folded
    /// text: under `[c]`, `"Straße"` folds to `"strasse"` and `"stra??e"` matches it,
    /// `"stra?e"` does not. (Apple does not document this case; this is the lab's rule.)
    package struct Like: Sendable {
        enum Token<Element: Equatable & Sendable>: Sendable {
            case element(Element)
            case one
            case run
        }

        /// The pattern as written.
        package let pattern: String
        let foldOptions: Int
        let tokens: [Token<Character>]
        /// Byte tokens when the pattern is ASCII without CR (CR LF is one character).
        let asciiTokens: [Token<UInt8>]?

        /// Compiles `pattern` for predicate options `options`.
        package init(_ pattern: String, options: Int) {
            self.pattern = pattern
            let fold = PatternMatching.foldOptions(options)
            foldOptions = fold
            var tokens: [Token<Character>] = []
            var literal = ""
            func flush() {
                tokens += StringMatching.fold(literal, options: fold).map { .element($0) }
                literal = ""
            }
            var escaped = false
            for c in pattern {
                if escaped { literal.append(c); escaped = false; continue }
                switch c {
                case "\\": escaped = true
                case "*": flush(); tokens.append(.run)
                case "?": flush(); tokens.append(.one)
                default: literal.append(c)
                }
            }
            if escaped { literal.append("\\") }
            flush()
            self.tokens = tokens
            let bytes = Array(pattern.utf8)
            if bytes.allSatisfy({ $0 < 0x80 && $0 != 0x0D }) {
                asciiTokens = tokens.map {
                    switch $0 {
                    case .element(let c): return .element(c.asciiValue!)
                    case .one: return .one
                    case .run: return .run
                    }
                }
            } else {
                asciiTokens = nil
            }
        }

        /// True when the whole of `text` matches.
        package func matches(_ text: String) -> Bool {
            var text = text
            return text.withUTF8 { matches(utf8: $0) }
        }

        /// ``matches(_:)`` on UTF-8 bytes; ASCII text against an ASCII pattern is
        /// matched on bytes without building a string.
        func matches(utf8 text: UnsafeBufferPointer<UInt8>) -> Bool {
            if let asciiTokens, text.allSatisfy({ $0 < 0x80 && $0 != 0x0D }) {
                if foldOptions & StringMatching.caseInsensitive != 0 {
                    return Like.glob(text, asciiTokens, StringMatching.lowerASCII)
                }
                return Like.glob(text, asciiTokens) { $0 }
            }
            let folded = StringMatching.fold(String(decoding: text, as: UTF8.self), options: foldOptions)
            return Like.glob(Array(folded), tokens) { $0 }
        }

        /// Wildcard matching with one backtracking point (enough for `*` and `?`):
        /// linear in practice, O(n·m) at worst.
        @inline(__always)
        static func glob<C: RandomAccessCollection>(
            _ text: C, _ p: [Token<C.Element>],
            _ fold: (C.Element) -> C.Element
        ) -> Bool
        where C.Index == Int, C.Element: Equatable & Sendable {
            let base = text.startIndex, n = text.count
            var t = 0, k = 0, starK = -1, starT = 0
            while t < n {
                if k < p.count {
                    switch p[k] {
                    case .run:
                        starK = k; starT = t; k += 1
                        continue
                    case .one:
                        t += 1; k += 1
                        continue
                    case .element(let e) where e == fold(text[base + t]):
                        t += 1; k += 1
                        continue
                    default:
                        break
                    }
                }
                guard starK >= 0 else { return false }
                k = starK + 1
                starT += 1
                t = starT
            }
            while k < p.count, case .run = p[k] { k += 1 }
            return k == p.count
        }
    }

    /// A pattern that is not a valid ICU regular expression.
    package struct InvalidRegex: Error, CustomStringConvertible, Sendable {
        /// The pattern as written.
        package let pattern: String
        /// Foundation's reason.
        package let reason: String
        package var description: String { "invalid regular expression '\(pattern)': \(reason)" }
    }

    /// A MATCHES pattern: an ICU regular expression (`NSRegularExpression`) that must
    /// match the whole text, as NSPredicate's MATCHES (ICU's `matches()`), not a
    /// substring: `"b.*"` does not match `"abc"`.
    ///
    /// ICU's flags are Foundation's for MATCHES, `UREGEX_DOTALL | UREGEX_MULTILINE` (0x28): `.`
    /// matches a line break, and `^` and `$` match at every line's start and end, while the match
    /// must still cover the whole text (so `"a\nb" MATCHES "a.b"` and `".*^b$"` hold, `"^b$"`
    /// does not). It is compiled as `^(?:pattern)\z` and matched anchored; `\z`, not `$`, so a
    /// trailing newline is not ignored. The empty pattern matches nothing, as in Foundation.
    /// `[c]` sets `.caseInsensitive` (ICU's case
    /// folding). `[d]` folds the diacritics of the text and of the pattern text
    /// (so a literal `é` or `[é]` in the pattern means `e`; escapes such as `\x{E9}`
    /// are not folded and then never match a folded text).
    package final class Regex {
        /// The pattern as written.
        package let pattern: String
        let foldOptions: Int
        private let regex: NSRegularExpression
        /// False when wrapping broke the pattern (an unterminated `\Q` or a `(?x)`
        /// comment swallows the closing parenthesis): then the raw pattern is used
        /// and a match must cover the whole text (alternatives are not retried).
        private let wrapped: Bool

        /// Compiles `pattern` for predicate options `options`.
        package init(_ pattern: String, options: Int) throws(InvalidRegex) {
            self.pattern = pattern
            var fold = PatternMatching.foldOptions(options)
            var caseOption: NSRegularExpression.Options = [.dotMatchesLineSeparators, .anchorsMatchLines]
            if fold & StringMatching.caseInsensitive != 0 { caseOption.insert(.caseInsensitive) }
            fold &= ~StringMatching.caseInsensitive
            foldOptions = fold
            let source = StringMatching.fold(pattern, options: fold)
            let raw: NSRegularExpression
            do {
                // NSRegularExpression rejects an empty pattern; `matches` answers false for it first.
                raw = try NSRegularExpression(pattern: source.isEmpty ? "(?:)" : source, options: caseOption)
            } catch {
                throw InvalidRegex(pattern: pattern, reason: (error as NSError).localizedDescription)
            }
            if let whole = try? NSRegularExpression(pattern: "^(?:" + source + ")\\z", options: caseOption) {
                regex = whole
                wrapped = true
            } else {
                regex = raw
                wrapped = false
            }
        }

        /// True when the whole of `text` matches.
        package func matches(_ text: String) -> Bool {
            if pattern.isEmpty { return false }
            let subject = StringMatching.fold(text, options: foldOptions)
            let length = subject.utf16.count
            guard let m = regex.firstMatch(in: subject, options: [.anchored], range: NSRange(location: 0, length: length))
            else { return false }
            return wrapped || m.range.length == length
        }
    }
}
