// The emulator's screens for byte sequences whose effect is known from the ECMA-48 / xterm rules by hand.
import ReelTerminal
import Testing

@Suite struct TerminalEmulatorTests {
    func screen(_ text: String, columns: Int = 10, rows: Int = 3) -> TerminalScreen {
        let e = TerminalEmulator(columns: columns, rows: rows)
        e.write(ArraySlice(Array(text.utf8)))
        return e.currentScreen()
    }

    @Test func textColoursAndStyles() {
        let s = screen("ab\u{1B}[1;31mc\u{1B}[0m\r\n\u{1B}[38;5;208;48;2;1;2;3;4;7md\u{1B}[m")
        #expect(s.text == "abc\nd\n")
        let c = s.lines[0].cells[2]
        #expect(c.text == "c" && c.foreground == .indexed(1) && c.background == .default && c.style == [.bold])
        let d = s.lines[1].cells[0]
        #expect(d.foreground == .indexed(208) && d.background == .rgb(TerminalRGB(1, 2, 3)) && d.style == [.underline, .inverse])
        #expect(s.lines[0].cells[0].foreground == .default && s.lines[0].cells[3] == .blank)
        // After "d" the cursor stands in column 1 of row 1.
        #expect(s.cursor?.row == 1 && s.cursor?.column == 1)
    }

    @Test func wideAndCombiningCharacters() {
        let s = screen("漢x e\u{301}")
        #expect(s.lines[0].cells[0].text == "漢" && s.lines[0].cells[0].width == 2)
        #expect(s.lines[0].cells[1].width == 0)
        #expect(s.lines[0].cells[2].text == "x")
        #expect(s.lines[0].cells[4].text == "e\u{301}")
    }

    @Test func scrollingAlternateScreenAndHiddenCursor() {
        // Four lines in three rows scroll the first away.
        #expect(screen("1\r\n2\r\n3\r\n4").text == "2\n3\n4")
        // The alternate screen is drawn on and left: the main screen comes back as it was.
        // (1049 keeps the cursor where it was: "ALT" starts in column 4.)
        #expect(screen("main\u{1B}[?1049hALT").text == "    ALT\n\n")
        #expect(screen("main\u{1B}[?1049hALT\u{1B}[?1049l").text == "main\n\n")
        #expect(screen("x\u{1B}[?25l").cursor == nil)
        // A scroll region of rows 2–3: the first row stays.
        #expect(screen("top\u{1B}[2;3r\u{1B}[2;1Ha\r\nb\r\nc").text == "top\nb\nc")
    }

    @Test func aResizeKeepsWhatFits() {
        let e = TerminalEmulator(columns: 10, rows: 3)
        e.write(ArraySlice(Array("hello".utf8)))
        e.resize(columns: 3, rows: 2)
        let s = e.currentScreen()
        #expect(s.columns == 3 && s.rows == 2 && s.lines.count == 2 && s.lines[0].cells.count == 3)
        #expect(s.text.hasPrefix("hel"))
    }

    @Test func unchangedRowsKeepTheirStorage() {
        let e = TerminalEmulator(columns: 10, rows: 3)
        e.write(ArraySlice(Array("a\r\nb".utf8)))
        let first = e.currentScreen()
        e.write(ArraySlice(Array("c".utf8)))
        let second = e.currentScreen()
        #expect(first.lines[0] == second.lines[0] && first.lines[1] != second.lines[1])
    }
}
