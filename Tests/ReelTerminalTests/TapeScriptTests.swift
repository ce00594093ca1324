// Tapes parsed into steps, and every refusal located by line and column.
import ReelDocument
import ReelTerminal
import Testing

@Suite struct TapeScriptTests {
    @Test func aTapesSteps() throws {
        let tape = try TapeScript.parse(
            """
            # comment
            set columns 100
            set rows 30
            set typingSpeed 0.1
            set env GREETING=hello
            set shell /bin/sh -i
            type "ls \\"a b\\"" 0.02   # typed fast
            enter 2
            key ctrl+c
            key alt+x
            sleep 1.5
            wait-for "^done$" 3
            """, file: "t.tape")
        #expect(tape.columns == 100 && tape.rows == 30 && tape.typingSpeed == 0.1 && tape.shell == ["/bin/sh", "-i"])
        #expect(tape.environment == ["GREETING": "hello"])
        #expect(
            tape.steps.map(\.step) == [
                .type("ls \"a b\"", perCharacter: 0.02), .key(name: "enter", bytes: [13]), .key(name: "enter", bytes: [13]),
                .key(name: "ctrl+c", bytes: [3]), .key(name: "alt+x", bytes: [0x1B, 0x78]), .sleep(1.5),
                .waitFor(pattern: "^done$", timeout: 3),
            ])
        #expect(tape.steps.map(\.line) == [7, 8, 8, 9, 10, 11, 12])
    }

    @Test func refusalsNameTheirPlace() {
        let cases: [(String, Int, Int, String)] = [
            ("typo \"x\"", 1, 1, "unknown command \"typo\""),
            ("\ntype \"open", 2, 6, "the quote opened here is not closed"),
            ("type \"a\\qb\"", 1, 8, "unknown escape \\q"),
            ("type ls", 1, 1, "type is written type \"text\""),
            ("key hyper+k", 1, 5, "no key \"hyper+k\""),
            ("sleep -1", 1, 7, "\"-1\" is not a number of seconds"),
            ("sleep 99999", 1, 7, "in 0…3600"),
            ("wait-for \"(\"", 1, 10, "is not a regular expression"),
            ("set columns 5000", 1, 13, "set columns takes a whole number in 1…1000"),
            ("set colour 3", 1, 5, "no setting \"colour\""),
            ("set columns 1000\nset rows 500", 2, 10, "more than 250000 cells"),
            ("enter 0", 1, 7, "takes a count in 1…1000"),
        ]
        for (text, line, column, message) in cases {
            do {
                _ = try TapeScript.parse(text, file: "t.tape")
                Issue.record("accepted: \(text)")
            } catch {
                #expect(error.description.contains(message), "\(error.description)")
                #expect(error.location == SourceLocation(line: line, column: column), "\(text): \(error.description)")
            }
        }
    }

    @Test func writtenTimesAndStrings() throws {
        var r = TerminalRecording(version: 2, columns: 3, rows: 1)
        r.output = Array("a\u{1B}[1m\"\\\n".utf8)
        r.events = [
            TerminalEvent(time: 0.1 + 0.2, kind: .output(0..<r.output.count)), TerminalEvent(time: 2, kind: .marker("m")),
        ]
        let text = String(decoding: r.asciicast(), as: UTF8.self)
        #expect(
            text == "{\"version\": 2, \"width\": 3, \"height\": 1}\n[0.3, \"o\", \"a\\u001b[1m\\\"\\\\\\n\"]\n[2, \"m\", \"m\"]\n"
        )
        // What is written reads back as it was.
        let back = try TerminalRecording.parse(r.asciicast(), file: "w.cast")
        #expect(back.output == r.output && back.events.map(\.time) == [0.3, 2])
    }
}
