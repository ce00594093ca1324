/// Tapes: the small scripts `reel record` runs against a shell (`type "ls"`, `enter`, `sleep 1.5`,
/// `wait-for "regex"`, `set columns 100`…), parsed into steps, every refusal located by line and column.
import Foundation
import ReelDocument

/// A parsed tape: the terminal and shell it sets up, and the steps it plays in order.
public struct TapeScript: Sendable, Equatable {
    public enum Step: Sendable, Equatable {
        /// Characters typed one at a time, `perCharacter` seconds apart.
        case type(String, perCharacter: Double)
        /// Bytes sent at once (enter, tab, arrows, ctrl+c…).
        case key(name: String, bytes: [UInt8])
        case sleep(Double)
        /// Output is read until the pattern matches what came since the last wait (or the start), or the
        /// timeout passes (an error).
        case waitFor(pattern: String, timeout: Double)
    }

    public var columns = 80
    public var rows = 24
    /// The shell and its arguments (bash without profile or rc files unless the tape sets another).
    public var shell = ["/bin/bash", "--noprofile", "--norc"]
    /// Variables set over the recording's fixed environment.
    public var environment: [String: String] = [:]
    public var typingSpeed = 0.05
    /// Each step's line in the tape, for errors while it runs.
    public var steps: [(line: Int, step: Step)] = []

    public init() {}

    public static func == (a: TapeScript, b: TapeScript) -> Bool {
        a.columns == b.columns && a.rows == b.rows && a.shell == b.shell && a.environment == b.environment
            && a.typingSpeed == b.typingSpeed && a.steps.map(\.line) == b.steps.map(\.line)
            && a.steps.map(\.step) == b.steps.map(\.step)
    }

    /// Most bytes a tape may have, steps it may hold, and seconds one `sleep` or `wait-for` may last.
    public static let maximumBytes = 1 << 20
    public static let maximumSteps = 10_000
    public static let maximumWait = 3_600.0

    /// The keys `key` names, as a terminal sends them.
    public static let keys: [String: [UInt8]] = [
        "enter": [0x0D], "tab": [0x09], "backspace": [0x7F], "escape": [0x1B], "space": [0x20], "up": Array("\u{1B}[A".utf8),
        "down": Array("\u{1B}[B".utf8), "right": Array("\u{1B}[C".utf8), "left": Array("\u{1B}[D".utf8),
        "home": Array("\u{1B}[H".utf8), "end": Array("\u{1B}[F".utf8), "pageup": Array("\u{1B}[5~".utf8),
        "pagedown": Array("\u{1B}[6~".utf8), "delete": Array("\u{1B}[3~".utf8),
    ]

    public static func read(contentsOf path: String) throws(DocumentError) -> TapeScript {
        let bytes = try InputFiles.read(path, maximumBytes: maximumBytes, what: "a tape")
        guard let text = String(validating: bytes, as: UTF8.self) else {
            let place = DocumentLimits.firstInvalidUTF8(bytes)
            throw DocumentError(file: path, location: place, message: "is not UTF-8 text", fix: "save the tape as UTF-8")
        }
        return try parse(text, file: path)
    }

    public static func parse(_ text: String, file: String) throws(DocumentError) -> TapeScript {
        var tape = TapeScript()
        // "\r\n" is one Character in Swift: split on every kind of line end, so a tape saved on Windows reads.
        for (index, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = index + 1
            var words: [(text: String, column: Int, quoted: Bool)] = []
            do {
                words = try TapeWords.split(String(raw))
            } catch {
                throw DocumentError(
                    file: file, location: SourceLocation(line: line, column: error.column), message: error.message,
                    fix: "quote text with \"…\" and escape a quote inside as \\\"")
            }
            guard let command = words.first else { continue }
            func fail(_ column: Int, _ message: String, fix: String? = nil) -> DocumentError {
                DocumentError(file: file, location: SourceLocation(line: line, column: column), message: message, fix: fix)
            }
            func seconds(_ i: Int, maximum: Double = maximumWait) throws(DocumentError) -> Double {
                guard i < words.count else { throw fail(command.column, "\(command.text) needs a number of seconds") }
                guard let v = Double(words[i].text), v >= 0, v <= maximum else {
                    throw fail(words[i].column, "\"\(words[i].text)\" is not a number of seconds in 0…\(Int(maximum))")
                }
                return v
            }
            func expect(_ count: Int, _ usage: String) throws(DocumentError) {
                guard words.count == count else {
                    throw fail(words.count > count ? words[count].column : command.column, "\(command.text) is written \(usage)")
                }
            }
            guard tape.steps.count < maximumSteps else {
                throw fail(1, "more than \(maximumSteps) steps", fix: "split the tape into several recordings")
            }
            switch command.text {
            case "type":
                guard words.count == 2 || words.count == 3, words[1].quoted else {
                    throw fail(command.column, "type is written type \"text\" [seconds per character]")
                }
                let speed = words.count == 3 ? try seconds(2, maximum: 10) : tape.typingSpeed
                guard words[1].text.unicodeScalars.count <= 10_000 else {
                    throw fail(words[1].column, "more than 10000 characters to type")
                }
                tape.steps.append((line, .type(words[1].text, perCharacter: speed)))
            case "enter", "tab", "backspace", "escape", "space", "up", "down", "left", "right":
                var count = 1
                if words.count == 2 {
                    guard let n = Int(words[1].text), n >= 1, n <= 1000 else {
                        throw fail(words[1].column, "\(command.text) takes a count in 1…1000, got \"\(words[1].text)\"")
                    }
                    count = n
                } else {
                    try expect(1, "\(command.text) [count]")
                }
                for _ in 0..<count { tape.steps.append((line, .key(name: command.text, bytes: keys[command.text] ?? []))) }
            case "key":
                try expect(2, "key NAME (enter, tab, up, ctrl+c…)")
                let name = words[1].text.lowercased()
                if let bytes = keys[name] {
                    tape.steps.append((line, .key(name: name, bytes: bytes)))
                } else if name.hasPrefix("ctrl+"), name.count == 6, let c = name.last?.asciiValue, c >= 0x40, c < 0x80 {
                    tape.steps.append((line, .key(name: name, bytes: [c & 0x1F])))
                } else if name.hasPrefix("alt+"), name.count == 5, let c = name.last?.asciiValue {
                    tape.steps.append((line, .key(name: name, bytes: [0x1B, c])))
                } else {
                    let names = keys.keys.sorted() + ["ctrl+LETTER", "alt+LETTER"]
                    throw fail(
                        words[1].column, "no key \"\(words[1].text)\"",
                        fix: "\(didYouMean(name, in: Array(keys.keys)))keys: \(names.joined(separator: ", "))")
                }
            case "sleep":
                try expect(2, "sleep SECONDS")
                tape.steps.append((line, .sleep(try seconds(1))))
            case "wait-for":
                guard words.count == 2 || words.count == 3, words[1].quoted else {
                    throw fail(command.column, "wait-for is written wait-for \"regex\" [timeout seconds]")
                }
                do {
                    _ = try NSRegularExpression(pattern: words[1].text, options: [.anchorsMatchLines])
                } catch {
                    throw fail(
                        words[1].column, "\"\(words[1].text)\" is not a regular expression", fix: "escape ( [ . * + ? with \\\\")
                }
                tape.steps.append((line, .waitFor(pattern: words[1].text, timeout: words.count == 3 ? try seconds(2) : 10)))
            case "set":
                guard words.count >= 3 else { throw fail(command.column, "set is written set NAME VALUE") }
                let value = words[2]
                func count(_ maximum: Int) throws(DocumentError) -> Int {
                    guard words.count == 3, let n = Int(value.text), n >= 1, n <= maximum else {
                        throw fail(value.column, "set \(words[1].text) takes a whole number in 1…\(maximum)")
                    }
                    return n
                }
                switch words[1].text {
                case "columns": tape.columns = try count(TerminalLimits.maximumColumns)
                case "rows": tape.rows = try count(TerminalLimits.maximumRows)
                case "typingSpeed":
                    try expect(3, "set typingSpeed SECONDS")
                    tape.typingSpeed = try seconds(2, maximum: 10)
                case "shell":
                    tape.shell = words.dropFirst(2).map(\.text)
                case "env":
                    try expect(3, "set env NAME=value")
                    guard let eq = value.text.firstIndex(of: "="), eq != value.text.startIndex else {
                        throw fail(value.column, "set env takes NAME=value")
                    }
                    tape.environment[String(value.text[..<eq])] = String(value.text[value.text.index(after: eq)...])
                default:
                    throw fail(
                        words[1].column, "no setting \"\(words[1].text)\"",
                        fix:
                            "\(didYouMean(words[1].text, in: ["columns", "rows", "typingSpeed", "shell", "env"]))settings: columns, rows, typingSpeed, shell, env"
                    )
                }
                guard tape.columns * tape.rows <= TerminalLimits.maximumCells else {
                    throw fail(
                        value.column,
                        "a \(tape.columns) × \(tape.rows) terminal has more than \(TerminalLimits.maximumCells) cells")
                }
            default:
                let known = [
                    "type", "enter", "key", "sleep", "wait-for", "set", "tab", "backspace", "escape", "space", "up", "down",
                    "left", "right",
                ]
                throw fail(
                    command.column, "unknown command \"\(command.text)\"",
                    fix: "\(didYouMean(command.text, in: known))commands: \(known.joined(separator: ", "))")
            }
        }
        return tape
    }
}

/// A tape line's words: bare words, and quoted text with \" \\ \n \t \e escapes; # starts a comment.
enum TapeWords {
    struct Failure: Error {
        var column: Int
        var message: String
    }

    static func split(_ line: String) throws(Failure) -> [(text: String, column: Int, quoted: Bool)] {
        var out: [(text: String, column: Int, quoted: Bool)] = []
        let chars = Array(line)
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if c == " " || c == "\t" || c == "\r" {
                i += 1
                continue
            }
            if c == "#" { break }
            let start = i + 1
            if c == "\"" {
                var text = ""
                i += 1
                var closed = false
                while i < chars.count {
                    let d = chars[i]
                    if d == "\"" {
                        closed = true
                        i += 1
                        break
                    }
                    if d == "\\", i + 1 < chars.count {
                        let e = chars[i + 1]
                        switch e {
                        case "n": text.append("\n")
                        case "t": text.append("\t")
                        case "e": text.append("\u{1B}")
                        case "\"", "\\": text.append(e)
                        default: throw Failure(column: i + 1, message: "unknown escape \\\(e) (known: \\\" \\\\ \\n \\t \\e)")
                        }
                        i += 2
                        continue
                    }
                    text.append(d)
                    i += 1
                }
                guard closed else { throw Failure(column: start, message: "the quote opened here is not closed") }
                out.append((text, start, true))
            } else {
                var word = ""
                while i < chars.count, chars[i] != " ", chars[i] != "\t", chars[i] != "\r" {
                    word.append(chars[i])
                    i += 1
                }
                out.append((word, start, false))
            }
        }
        return out
    }
}
