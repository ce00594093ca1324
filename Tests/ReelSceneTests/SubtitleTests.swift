import ReelDocument
import Testing

/// SRT and WebVTT read into cues: times to the millisecond, markup taken out, the blocks that are not
/// cues skipped, and every malformed file one error at the line and column of what is wrong.
@Suite struct SubtitleTests {
    func parse(_ text: String) throws(DocumentError) -> [SubtitleCue] {
        try Subtitles.parse(Array(text.utf8), file: "t.srt")
    }

    @Test func subRipWithWindowsLineEndsAByteOrderMarkAndMarkup() throws {
        let srt =
            "\u{FEFF}1\r\n00:00:01,000 --> 00:00:02,500\r\nHello <i>there</i>\r\n\r\n"
            + "2\r\n00:01:03,040 --> 01:00:00,000\r\n{\\an8}Two\r\n  lines  \r\n"
        let cues = try parse(srt)
        #expect(
            cues == [
                SubtitleCue(start: 1, end: 2.5, text: "Hello there"),
                SubtitleCue(start: 63.04, end: 3600, text: "Two\nlines"),
            ])
    }

    @Test func webVTTHeaderNotesIdentifiersShortTimesSettingsAndEntities() throws {
        let vtt = """
            WEBVTT - a talk
            Kind: captions

            NOTE written by hand
            over two lines

            intro
            00:01.500 --> 00:02.000 align:start line:0
            <v Ann>Fish &amp; chips &lt;3</v>

            00:00:04.000 --> 00:00:05.250
            <00:00:04.500>word <c.loud>timing</c>
            """
        let cues = try Subtitles.parse(Array(vtt.utf8), file: "t.vtt")
        #expect(
            cues == [
                SubtitleCue(start: 1.5, end: 2, text: "Fish & chips <3"),
                SubtitleCue(start: 4, end: 5.25, text: "word timing"),
            ])
    }

    /// Each error: its line and column, counted by hand in the text.
    @Test(arguments: [
        ("1\n00:00:01,000 -> 00:00:02,000\nx\n", 1, 1, "expected a cue's timing"),
        ("1\n00:00:01,000 --> 00:00:62,000\nx\n", 2, 18, "\"00:00:62,000\" is not a time"),
        ("1\n00:00:01;000 --> 00:00:02,000\nx\n", 2, 1, "\"00:00:01;000\" is not a time"),
        ("1\n00:00:03,000 --> 00:00:02,000\nx\n", 2, 18, "ends at 00:00:02,000, not after it starts"),
        ("1\n00:00:01,000 --> 00:00:02,000\nok\n\n2\n00:00:02,000 --> 3\nx\n", 6, 18, "\"3\" is not a time"),
    ])
    func malformedFilesAreLocated(_ text: String, _ line: Int, _ column: Int, _ message: String) {
        #expect {
            _ = try parse(text)
        } throws: { error in
            guard let e = error as? DocumentError else { return false }
            return e.location == SourceLocation(line: line, column: column) && e.message.contains(message) && e.fix != nil
        }
    }

    @Test func limits() {
        // Invalid UTF-8: the byte's place.
        #expect {
            _ = try Subtitles.parse(Array("1\n00:00:01,000 --> 00:00:02,000\nbad ".utf8) + [0xFF], file: "t.srt")
        } throws: { ($0 as? DocumentError)?.location == SourceLocation(line: 3, column: 5) }
        // A cue longer than the limit.
        let long = "1\n00:00:01,000 --> 00:00:02,000\n" + String(repeating: "a", count: Subtitles.maximumCueLength + 1) + "\n"
        #expect {
            _ = try parse(long)
        } throws: { ($0 as? DocumentError)?.message.contains("above the limit of \(Subtitles.maximumCueLength)") == true }
        // More cues than the limit: refused at the first one past it.
        var many = ""
        for i in 0...Subtitles.maximumCues { many += "\(i)\n00:00:01,000 --> 00:00:02,000\nx\n\n" }
        #expect {
            _ = try parse(many)
        } throws: { ($0 as? DocumentError)?.location?.line == Subtitles.maximumCues * 4 + 2 }
        // Too many bytes: refused before reading them.
        #expect {
            _ = try Subtitles.parse([UInt8](repeating: 0x20, count: Subtitles.maximumBytes + 1), file: "t.srt")
        } throws: { ($0 as? DocumentError)?.message.contains("above the limit") == true }
    }
}
