/// The checks run on a document's text before it is parsed: UTF-8 positions and the YAML nesting bound.
import ReelDocument
import Testing

@testable import ReelScene

@Suite struct DocumentLimitsTests {
    @Test func firstInvalidUTF8ByteIsLocated() {
        #expect(DocumentLimits.firstInvalidUTF8(Array("a: é\nb: ✓\n".utf8)) == nil)
        // Line 2, column 4: "b: " then a lone continuation byte.
        #expect(DocumentLimits.firstInvalidUTF8(Array("a: é\nb: ".utf8) + [0x80]) == SourceLocation(line: 2, column: 4))
        // An overlong encoding of "/" and a UTF-16 surrogate are not UTF-8 either.
        #expect(DocumentLimits.firstInvalidUTF8([0x41, 0xC0, 0xAF]) == SourceLocation(line: 1, column: 2))
        #expect(DocumentLimits.firstInvalidUTF8([0xED, 0xA0, 0x80]) == SourceLocation(line: 1, column: 1))
        // Truncated at the end of the file.
        #expect(DocumentLimits.firstInvalidUTF8([0x0A, 0xE2, 0x9C]) == SourceLocation(line: 2, column: 1))
    }

    @Test func yamlNestingBound() {
        // Flow nesting: the bound counts the open brackets (plus the "x: " indicator and its line).
        let flow = { (n: Int) in "x: " + String(repeating: "[", count: n) + String(repeating: "]", count: n) + "\n" }
        #expect(DocumentLimits.yamlNestingBeyond(256, in: flow(200)) == nil)
        #expect(DocumentLimits.yamlNestingBeyond(256, in: flow(300)) != nil)
        // Block nesting by indentation, 300 levels deep.
        let block = (0..<300).map { String(repeating: " ", count: $0) + "k\($0):" }.joined(separator: "\n") + " 1\n"
        #expect(DocumentLimits.yamlNestingBeyond(256, in: block) != nil)
        // Brackets inside quotes, comments and block scalars are text, not structure.
        let text =
            "a: \"" + String(repeating: "[", count: 400) + "\"\nb: '" + String(repeating: "{", count: 400) + "'\n# "
            + String(repeating: "[", count: 400) + "\nc: |\n  " + String(repeating: "[", count: 400) + "\n  more\nd: 1\n"
        #expect(DocumentLimits.yamlNestingBeyond(256, in: text) == nil)
        // Every example scene stays far below the limit.
        #expect(
            DocumentLimits.yamlNestingBeyond(
                20, in: "layers:\n  - name: a\n    animations:\n      - {keyPath: opacity, values: [0, 1]}\n") == nil)
    }
}
