/// Subtitle files read into timed cues: SubRip (SRT) and WebVTT, told by WebVTT's header, with limits
/// and errors at the line and column of the bad timing.
import Foundation

/// One caption: the text on screen from `start` to `end` (seconds), its lines joined by newlines, its
/// markup (`<i>`, `<v Speaker>`, `{\an8}`) taken out.
public struct SubtitleCue: Sendable, Equatable {
    public var start: Double
    public var end: Double
    public var text: String

    public init(start: Double, end: Double, text: String) {
        self.start = start
        self.end = end
        self.text = text
    }
}

public enum Subtitles {
    /// The largest subtitle file read (a feature film's SRT is about 100 KB).
    public static let maximumBytes = 16 << 20
    public static let maximumCues = 100_000
    /// Characters of one cue's text.
    public static let maximumCueLength = 10_000

    /// Reads a subtitle file (WebVTT when it starts with `WEBVTT`, SubRip otherwise); `file` names it in
    /// errors. Cues come in the file's order; blocks that are not cues (WebVTT's `NOTE`, `STYLE`,
    /// `REGION`) are skipped.
    public static func parse(_ bytes: [UInt8], file: String) throws(DocumentError) -> [SubtitleCue] {
        guard bytes.count <= maximumBytes else {
            throw DocumentError(
                file: file, message: "is \(bytes.count >> 20) MiB, above the limit of \(maximumBytes >> 20) MiB for subtitles",
                fix: "split the subtitles into smaller files")
        }
        guard var text = String(validating: bytes, as: UTF8.self) else {
            throw DocumentError(
                file: file, location: DocumentLimits.firstInvalidUTF8(bytes), message: "this byte is not UTF-8 text",
                fix: "save the subtitles as UTF-8")
        }
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        // "\r\n" is one Character in Swift: split on it as on "\n" and a lone "\r".
        let lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }.map(String.init)
        let vtt = lines.first.map { $0 == "WEBVTT" || $0.hasPrefix("WEBVTT ") || $0.hasPrefix("WEBVTT\t") } ?? false
        var cues: [SubtitleCue] = []
        var i = vtt ? 1 : 0
        func blank(_ k: Int) -> Bool { lines[k].allSatisfy { $0 == " " || $0 == "\t" } }
        // WebVTT's header runs to the first blank line.
        if vtt { while i < lines.count && !blank(i) { i += 1 } }
        while i < lines.count {
            if blank(i) {
                i += 1
                continue
            }
            // A block: up to the next blank line.
            var end = i
            while end < lines.count && !blank(end) { end += 1 }
            defer { i = end }
            let block = i..<end
            if vtt, ["NOTE", "STYLE", "REGION"].contains(where: { lines[i] == $0 || lines[i].hasPrefix($0 + " ") }) { continue }
            // The timing line: the first (or, after a number or an identifier, the second) line with "-->".
            guard let timing = block.prefix(2).first(where: { lines[$0].contains("-->") }) else {
                throw DocumentError(
                    file: file, location: SourceLocation(line: i + 1, column: 1),
                    message: "expected a cue's timing, such as 00:00:01,000 --> 00:00:03,500",
                    fix: "give each cue a number (SRT), its timing line, its text, and a blank line after it")
            }
            let (start, stop) = try times(lines[timing], line: timing + 1, file: file)
            var body: [String] = []
            for k in (timing + 1)..<end { body.append(lines[k]) }
            let cueText = plain(body.joined(separator: "\n"))
            guard cueText.count <= maximumCueLength else {
                throw DocumentError(
                    file: file, location: SourceLocation(line: timing + 2, column: 1),
                    message: "this cue's text is \(cueText.count) characters, above the limit of \(maximumCueLength)",
                    fix: "split it into shorter cues")
            }
            guard cues.count < maximumCues else {
                throw DocumentError(
                    file: file, location: SourceLocation(line: timing + 1, column: 1),
                    message: "more than \(maximumCues) cues", fix: "split the subtitles into smaller files")
            }
            cues.append(SubtitleCue(start: start, end: stop, text: cueText))
        }
        return cues
    }

    /// `start --> end [settings]`: both times, the end after the start.
    static func times(_ line: String, line number: Int, file: String) throws(DocumentError) -> (Double, Double) {
        let chars = Array(line)
        let arrow = line.range(of: "-->")!
        let arrowColumn = line.distance(from: line.startIndex, to: arrow.lowerBound)
        let left = String(chars[0..<arrowColumn]).trimmingSpaces
        let rightAll = String(chars[(arrowColumn + 3)...])
        let leading = rightAll.prefix { $0 == " " || $0 == "\t" }.count
        let right = String(rightAll.dropFirst(leading).prefix { $0 != " " && $0 != "\t" })
        func fail(_ column: Int, _ text: String) -> DocumentError {
            DocumentError(
                file: file, location: SourceLocation(line: number, column: column + 1),
                message: "\"\(text)\" is not a time: write hours:minutes:seconds,milliseconds",
                fix: "e.g. 00:01:02,500 (SRT) or 00:01:02.500 (WebVTT; the hours may be left out)")
        }
        let leftColumn = chars.firstIndex { $0 != " " && $0 != "\t" } ?? 0
        guard let start = seconds(left) else { throw fail(leftColumn, left) }
        let rightColumn = arrowColumn + 3 + leading
        guard let end = seconds(right) else { throw fail(rightColumn, right) }
        guard end > start else {
            throw DocumentError(
                file: file, location: SourceLocation(line: number, column: rightColumn + 1),
                message: "this cue ends at \(right), not after it starts (\(left))",
                fix: "give each cue an end after its start")
        }
        return (start, end)
    }

    /// `[hh:]mm:ss[,.]fff` in seconds; nil when it is not one (minutes and seconds below 60, at most
    /// 24 hours).
    static func seconds(_ s: String) -> Double? {
        let parts = s.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3 else { return nil }
        let last = parts[parts.count - 1]
        let secondsParts = last.split(omittingEmptySubsequences: false) { $0 == "," || $0 == "." }
        guard secondsParts.count <= 2 else { return nil }
        func digits(_ t: Substring, _ range: ClosedRange<Int>) -> Int? {
            guard range.contains(t.count), t.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            return Int(t)
        }
        guard let ss = digits(secondsParts[0], 1...2), ss < 60 else { return nil }
        var fraction = 0.0
        if secondsParts.count == 2 {
            guard let f = digits(secondsParts[1], 1...3) else { return nil }
            fraction = Double(f) / ([10.0, 100, 1000][secondsParts[1].count - 1])
        }
        guard let mm = digits(parts[parts.count - 2], 1...2), mm < 60 else { return nil }
        var hh = 0
        if parts.count == 3 {
            guard let h = digits(parts[0], 1...3), h <= 24 else { return nil }
            hh = h
        }
        return Double(hh * 3600 + mm * 60 + ss) + fraction
    }

    /// The text without markup: tags (`<i>`, `</b>`, `<v Ann>`, `<00:01.000>`), SubRip's `{\an8}`
    /// positioning, and WebVTT's entities.
    static func plain(_ s: String) -> String {
        let chars = Array(s)
        var out = ""
        var k = 0
        while k < chars.count {
            let c = chars[k]
            let closing: Character? = c == "<" ? ">" : (c == "{" && k + 1 < chars.count && chars[k + 1] == "\\") ? "}" : nil
            if let closing, let end = chars[(k + 1)...].firstIndex(of: closing) {
                k = end + 1
                continue
            }
            out.append(c)
            k += 1
        }
        for (entity, character) in [
            ("&lt;", "<"), ("&gt;", ">"), ("&nbsp;", "\u{A0}"), ("&lrm;", "\u{200E}"), ("&rlm;", "\u{200F}"), ("&amp;", "&"),
        ] {
            out = out.replacingOccurrences(of: entity, with: character)
        }
        return out.split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingSpaces }.joined(
            separator: "\n"
        ).trimmingCharacters(in: .newlines)
    }
}

extension StringProtocol {
    fileprivate var trimmingSpaces: String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" { s.removeLast() }
        return String(s)
    }
}
