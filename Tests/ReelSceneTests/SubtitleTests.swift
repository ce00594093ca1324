// SRT, WebVTT and word-timestamp files read into cues and words; malformed files refused at a line and column counted by hand.
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

/// Word timestamps as speech-to-text tools write them: a list, a list under `words`, or under each of
/// Whisper's `segments`; bad entries located at their line and column.
@Suite struct WordTimingTests {
    @Test func theThreeShapes() throws {
        let list = #"[{"word": " Hello", "start": 0.5, "end": 0.9}, {"text": "you", "start": 1, "end": 1.25}]"#
        let want = [TimedWord(word: " Hello", start: 0.5, end: 0.9), TimedWord(word: "you", start: 1, end: 1.25)]
        #expect(try WordTimings.parse(Array(list.utf8), file: "w.json") == want)
        #expect(try WordTimings.parse(Array(#"{"words": \#(list)}"#.utf8), file: "w.json") == want)
        let whisper = #"{"text": "Hello you", "segments": [{"id": 0, "words": \#(list)}, {"id": 1}]}"#
        #expect(try WordTimings.parse(Array(whisper.utf8), file: "w.json") == want)
    }

    @Test(arguments: [
        (#"[{"word": "a", "start": 2, "end": 1}]"#, 1, 2, "ends at or after it starts"),
        ("[\n  {\"word\": \"a\", \"start\": 1}\n]", 2, 3, "needs its \"start\" and \"end\""),
        (#"{"text": "no words"}"#, 1, 1, "expected a list of words"),
        ("[1,\n 2", 2, 3, "unexpected end of file"),
    ])
    func badFilesAreLocated(_ text: String, _ line: Int, _ column: Int, _ message: String) {
        #expect {
            _ = try WordTimings.parse(Array(text.utf8), file: "w.json")
        } throws: { error in
            guard let e = error as? DocumentError else { return false }
            return e.location?.line == line && e.location?.column == column && e.message.contains(message)
        }
    }
}
