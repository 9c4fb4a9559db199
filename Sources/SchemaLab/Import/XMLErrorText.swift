import Foundation

/// XMLParser's error codes (on Linux, libxml2's `xmlParserErrors`, which Apple's
/// `XMLParser.ErrorCode` numbers alike) in words a person can act on; the number is kept
/// after them for a search.
enum XMLErrorText {
    static let words: [Int: String] = [
        1: "the parser stopped (libxml2 reports an element nesting deeper than its limit of 256 this way)",
        4: "the document is empty",
        5: "the document ends before its elements close",
        9: "a character that XML does not allow",
        23: "an entity reference (&name;) without its closing ';'",
        26: "an entity reference (&name;) that the document never declares",
        27: "an entity reference (&name;) that the document never declares",
        28: "a reference to an unparsed entity",
        29: "a reference to an external entity, which the importer does not load",
        38: "a '<' inside an attribute's value",
        39: "an attribute without its quoted value",
        40: "an attribute value without its closing quote",
        41: "an attribute without a value",
        42: "an attribute given twice in one element",
        45: "a comment that never ends",
        73: "a '>' missing at the end of a tag",
        76: "a closing tag that does not match the element it closes",
        77: "a tag that is not finished",
        85: "elements that do not close in the order they open",
        86: "content after the end of the root element",
        89: "entities that expand into each other without end or past a safe size (an entity expansion attack)",
        104: "entities that expand past a safe size (an entity expansion attack)",
    ]

    /// `error` (an XMLParser error) in words, with its code.
    static func describe(_ error: (any Error)?) -> String {
        guard let error else { return "malformed XML" }
        let code = (error as NSError).code
        guard let text = words[code] else { return "XMLParser error \(code) (\((error as NSError).domain))" }
        return "\(text) (XMLParser error \(code))"
    }
}
