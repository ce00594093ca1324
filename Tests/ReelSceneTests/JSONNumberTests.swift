// JSON numbers and strings read without making text of them, against the standard library's parse.
import ReelDocument
import ReelTestSupport
import Testing

@Suite struct JSONNumberTests {
    /// Each number, parsed in a document, is the double `Double(String)` (strtod, correctly rounded) gives
    /// for its text: the fast path's numbers (≤ 15 significant digits, powers to 10^±22) and those past it.
    @Test func numbersAreTheStandardLibrarysDoubles() throws {
        var g = SeededGenerator(state: 11)
        var texts = [
            "0", "-0", "0.0", "-0.0", "1", "-1", "0.1", "0.3", "1e22", "1e23", "1e-22", "1e-23", "123456789012345",
            "1234567890123456", "9007199254740993", "0.000000000000000000001", "1.7976931348623157e308", "5e-324",
            "2.2250738585072014e-308", "123.456e-7", "1E+2", "4.35", "1366.169937154607", "0.17", "-709.954001576",
        ]
        for _ in 0..<3000 {
            let digits = Int.random(in: 1...18, using: &g)
            var t = Bool.random(using: &g) ? "-" : ""
            let point = Int.random(in: 0...digits, using: &g)
            for k in 0..<digits {
                if k == point && k > 0 { t += "." }
                t += String(k == 0 && digits > 1 ? Int.random(in: 1...9, using: &g) : Int.random(in: 0...9, using: &g))
            }
            if Int.random(in: 0..<3, using: &g) == 0 { t += "e\(Int.random(in: -30...30, using: &g))" }
            texts.append(t)
        }
        for text in texts {
            let node = try JSONParser.parse(Array("[\(text)]".utf8))
            guard case .array(let items) = node.value, case .number(let v) = items[0].value else {
                Issue.record("\(text) did not parse as a number")
                continue
            }
            let expected = try #require(Double(text))
            #expect(v.bitPattern == expected.bitPattern, "\(text): \(v) against \(expected)")
        }
    }

    /// Strings with and without escapes read the same as written.
    @Test func stringsWithAndWithoutEscapes() throws {
        let node = try JSONParser.parse(Array(#"["plain", "tab\there", "quote \" and \\ slash", "é ü 中", "\u00e9", ""]"#.utf8))
        guard case .array(let items) = node.value else {
            Issue.record("not an array")
            return
        }
        let strings = items.map { item -> String? in if case .string(let s) = item.value { return s } else { return nil } }
        #expect(strings == ["plain", "tab\there", "quote \" and \\ slash", "é ü 中", "é", ""])
    }
}
