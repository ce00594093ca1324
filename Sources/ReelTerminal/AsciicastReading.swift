/// asciicast files (versions 2 and 3, asciinema's format) read into a `TerminalRecording`: a JSON header
/// line, then one JSON array per event; every refusal names the file, the line and column, and the fix.
import ReelDocument

extension TerminalRecording {
    /// Reads the recording at `path` (at most `TerminalLimits.maximumRecordingBytes`).
    public static func read(contentsOf path: String) throws(DocumentError) -> TerminalRecording {
        let bytes = try InputFiles.read(path, maximumBytes: TerminalLimits.maximumRecordingBytes, what: "a terminal recording")
        return try parse(bytes, file: path)
    }

    /// Whether `prefix` (a file's first bytes) starts like an asciicast: a JSON object whose first line
    /// holds `"version": 2` or `3`, the way a scene or a Lottie file never begins.
    public static func looksLikeAsciicast(_ prefix: [UInt8]) -> Bool {
        let line = prefix.prefix { $0 != 0x0A }
        guard line.first(where: { $0 != 0x20 && $0 != 0x09 }) == UInt8(ascii: "{"),
            let root = try? JSONParser.parse(Array(line)), case .object(let members) = root.value,
            case .number(let v)? = members.first(where: { $0.key == "version" })?.value.value
        else { return false }
        return v == 2 || v == 3
    }

    /// Parses an asciicast's bytes; `file` names it in errors.
    public static func parse(_ bytes: [UInt8], file: String) throws(DocumentError) -> TerminalRecording {
        var reader = AsciicastReader(file: file)
        var start = 0
        var line = 0
        var recording = TerminalRecording(version: 0, columns: 0, rows: 0)
        var started = false
        while start < bytes.count {
            line += 1
            let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
            var content = bytes[start..<end]
            start = end + 1
            if content.last == 0x0D { content = content.dropLast() }
            guard content.contains(where: { $0 != 0x20 && $0 != 0x09 }) else { continue }
            if started {
                // Comments are part of version 3; a version 2 file has none, but skipping them costs nothing.
                if content.first(where: { $0 != 0x20 && $0 != 0x09 }) == UInt8(ascii: "#") { continue }
                try reader.event(Array(content), line: line, into: &recording)
            } else {
                recording = try reader.header(Array(content), line: line)
                started = true
            }
        }
        guard started else {
            throw DocumentError(
                file: file, message: "is empty: an asciicast recording starts with a JSON header line",
                fix: "record one with asciinema rec or reel record")
        }
        return recording
    }
}

/// The state of reading one file: where it is and the time the events have reached.
struct AsciicastReader {
    let file: String
    var version = 2
    var clock = 0.0

    init(file: String) { self.file = file }

    func fail(_ line: Int, _ column: Int = 1, _ message: String, fix: String? = nil) -> DocumentError {
        DocumentError(file: file, location: SourceLocation(line: line, column: column), message: message, fix: fix)
    }

    func json(_ bytes: [UInt8], line: Int, what: String) throws(DocumentError) -> JSONNode {
        do {
            return try JSONParser.parse(bytes)
        } catch {
            throw fail(
                line, error.location.column, "\(what) is not valid JSON: \(error.message)",
                fix: "each line of an asciicast is one JSON value; re-record the session or mend this line")
        }
    }

    mutating func header(_ bytes: [UInt8], line: Int) throws(DocumentError) -> TerminalRecording {
        let root = try json(bytes, line: line, what: "the header")
        guard case .object(let members) = root.value else {
            throw fail(
                line, root.location.column, "the header is \(root.kindName); an asciicast starts with a JSON object",
                fix: "give an asciicast v2 or v3 file (asciinema rec writes one)")
        }
        func member(_ key: String, in list: [(key: String, keyLocation: SourceLocation, value: JSONNode)]) -> JSONNode? {
            list.first { $0.key == key }?.value
        }
        guard let versionNode = member("version", in: members), case .number(let v) = versionNode.value else {
            throw fail(
                line, root.location.column, "the header has no \"version\": this is not an asciicast recording",
                fix: "give an asciicast v2 or v3 file (asciinema rec writes one); version 1 files convert with asciinema convert")
        }
        guard v == 2 || v == 3 else {
            throw fail(
                line, versionNode.location.column, "asciicast version \(Self.number(v)) is not read (versions 2 and 3 are)",
                fix: "convert it with asciinema convert")
        }
        version = Int(v)
        var size = members
        var sizeNames = ("width", "height")
        if version == 3 {
            guard let term = member("term", in: members), case .object(let t) = term.value else {
                throw fail(line, root.location.column, "a version 3 header needs \"term\": {\"cols\": …, \"rows\": …}")
            }
            size = t
            sizeNames = ("cols", "rows")
        }
        func count(_ key: String, _ maximum: Int) throws(DocumentError) -> Int {
            guard let node = member(key, in: size) else {
                throw fail(line, root.location.column, "the header has no \"\(key)\"", fix: "give the terminal's size in cells")
            }
            guard case .number(let n) = node.value, n == n.rounded(), n >= 1, n <= Double(maximum) else {
                throw fail(
                    line, node.location.column, "\"\(key)\" must be a whole number of cells in 1…\(maximum)",
                    fix: "record in a terminal of at most \(TerminalLimits.maximumColumns) × \(TerminalLimits.maximumRows) cells")
            }
            return Int(n)
        }
        let columns = try count(sizeNames.0, TerminalLimits.maximumColumns)
        let rows = try count(sizeNames.1, TerminalLimits.maximumRows)
        try checkCells(columns, rows, line: line, column: root.location.column)
        var recording = TerminalRecording(version: version, columns: columns, rows: rows)
        if let node = member("idle_time_limit", in: members), case .number(let limit) = node.value, limit > 0, limit.isFinite {
            recording.idleTimeLimit = limit
        }
        if let node = member("title", in: members), case .string(let title) = node.value {
            recording.title = String(title.prefix(TerminalLimits.maximumLabel))
        }
        if let node = member("theme", in: version == 3 ? size : members) {
            recording.theme = try theme(node, line: line)
        }
        return recording
    }

    /// The header's colours: "fg", "bg" and "palette" ("#rrggbb:#rrggbb:…", 8 or 16 of them). A theme
    /// that does not parse is an error: the recorder meant those colours.
    func theme(_ node: JSONNode, line: Int) throws(DocumentError) -> RecordedTheme? {
        guard case .object(let members) = node.value else { return nil }
        func colour(_ key: String) throws(DocumentError) -> TerminalRGB {
            guard let n = members.first(where: { $0.key == key })?.value, case .string(let s) = n.value,
                let c = TerminalRGB(hex: s)
            else {
                throw fail(line, node.location.column, "the theme's \"\(key)\" must be a colour \"#rrggbb\"")
            }
            return c
        }
        let fg = try colour("fg"), bg = try colour("bg")
        guard let n = members.first(where: { $0.key == "palette" })?.value, case .string(let s) = n.value else {
            throw fail(line, node.location.column, "the theme's \"palette\" must be 8 or 16 colours \"#rrggbb:#rrggbb:…\"")
        }
        let palette = s.split(separator: ":", omittingEmptySubsequences: false).map { TerminalRGB(hex: String($0)) }
        guard palette.count == 8 || palette.count == 16, palette.allSatisfy({ $0 != nil }) else {
            throw fail(line, n.location.column, "the theme's \"palette\" must be 8 or 16 colours \"#rrggbb:#rrggbb:…\"")
        }
        return RecordedTheme(foreground: fg, background: bg, palette: palette.compactMap { $0 })
    }

    func checkCells(_ columns: Int, _ rows: Int, line: Int, column: Int) throws(DocumentError) {
        guard columns * rows <= TerminalLimits.maximumCells else {
            throw fail(
                line, column, "a \(columns) × \(rows) terminal has more than \(TerminalLimits.maximumCells) cells",
                fix: "record in a smaller terminal")
        }
    }

    mutating func event(_ bytes: [UInt8], line: Int, into recording: inout TerminalRecording) throws(DocumentError) {
        let node = try json(bytes, line: line, what: "an event")
        let example = "[1.5, \"o\", \"text\"]"
        guard case .array(let items) = node.value, items.count == 3 else {
            throw fail(
                line, node.location.column, "an event is [time, code, data], got \(node.kindName)", fix: "write it as \(example)")
        }
        guard case .number(let t) = items[0].value else {
            throw fail(
                line, items[0].location.column, "an event's time is a number of seconds, got \(items[0].kindName)",
                fix: "write it as \(example)")
        }
        guard t.isFinite, t >= 0 else {
            throw fail(
                line, items[0].location.column, "an event's time must be 0 or more seconds, got \(Self.number(t))",
                fix: "re-record the session; times never run backwards")
        }
        // Version 3 gives each event's time since the one before; version 2 the time since the start, which
        // a recorder's clock may step back a little: held at the latest time instead.
        clock = version == 3 ? clock + t : max(clock, t)
        guard clock <= TerminalLimits.maximumTime else {
            throw fail(
                line, items[0].location.column,
                "the recording reaches \(Self.number(clock)) s, past the limit of \(Int(TerminalLimits.maximumTime)) s (100 hours)",
                fix: "cut the recording, or play it with an idle time limit after re-recording")
        }
        guard case .string(let code) = items[1].value, case .string(let data) = items[2].value else {
            let bad = items[1].kindName == "a string" ? items[2] : items[1]
            throw fail(
                line, bad.location.column, "an event's code and data are strings, got \(bad.kindName)",
                fix: "write it as \(example)")
        }
        guard recording.events.count < TerminalLimits.maximumEvents else {
            throw fail(
                line, 1, "more than \(TerminalLimits.maximumEvents) events", fix: "cut the recording into parts and render each")
        }
        let kind: TerminalEvent.Kind
        switch code {
        case "o":
            let start = recording.output.count
            recording.output.append(contentsOf: data.utf8)
            kind = .output(start..<recording.output.count)
        case "r":
            let parts = data.split(separator: "x", omittingEmptySubsequences: false).map { Int($0) }
            guard parts.count == 2, let c = parts[0], let r = parts[1], c >= 1, r >= 1,
                c <= TerminalLimits.maximumColumns, r <= TerminalLimits.maximumRows
            else {
                throw fail(
                    line, items[2].location.column,
                    "a resize gives \"COLUMNSxROWS\" within \(TerminalLimits.maximumColumns) × \(TerminalLimits.maximumRows), got \"\(data.prefix(40))\"",
                    fix: "write it as \"100x30\"")
            }
            try checkCells(c, r, line: line, column: items[2].location.column)
            kind = .resize(columns: c, rows: r)
        case "m": kind = .marker(String(data.prefix(TerminalLimits.maximumLabel)))
        case "i": kind = .input
        case "x": kind = .exit(Int(data) ?? 0)
        default:
            // The format lets recorders add codes; players pass over what they do not know.
            return
        }
        recording.events.append(TerminalEvent(time: clock, kind: kind))
    }

    static func number(_ v: Double) -> String {
        v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v)
    }
}
