/// Batches from data: a table's rows (CSV with a header row, or JSON Lines) as a job's variants, each
/// value typed by the scene's declared default, every problem located in the data file.
import CSV
import Foundation
import ReelDocument
import ReelGeometry
import ReelScene

/// One row of a data table as a job's variant: its number (from 1), its name (the `name` column, else
/// `row<number>`), the variables it sets, the text of every cell for the output placeholders, and where
/// each cell is (a value from the table that would build a path is refused there).
struct DataRow: Sendable {
    var number: Int
    var name: String
    var variables: [String: JSONNode]
    var fields: [String: String]
    var cells: [String: SourceLocation] = [:]
}

enum DataRows {
    static let maximumRows = 1_000_000
    static let maximumBytes = DocumentLimits.maximumBytes

    /// Reads `path` (`.csv`, or `.jsonl`/`.ndjson`) against the variables a scene declares.
    static func read(_ path: String, declared: [(name: String, value: JSONNode)]) throws(DocumentError) -> [DataRow] {
        if let problem = InputFiles.problem(at: path), problem.message.hasPrefix("no such file") {
            throw DocumentError(
                file: path, message: "no such data file", fix: "check the path (a manifest's paths are relative to its folder)")
        }
        return try parse(
            try InputFiles.read(path, maximumBytes: maximumBytes, what: "a data file"), file: path, declared: declared)
    }

    /// The rows of a table's bytes; `file` (its extension: `.jsonl`, `.ndjson`, else CSV) names it.
    static func parse(_ bytes: [UInt8], file path: String, declared: [(name: String, value: JSONNode)]) throws(DocumentError)
        -> [DataRow]
    {
        guard bytes.count <= maximumBytes else {
            throw DocumentError(file: path, message: "is \(bytes.count >> 20) MiB, above the limit of \(maximumBytes >> 20) MiB")
        }
        guard var text = String(validating: bytes, as: UTF8.self) else {
            throw DocumentError(
                file: path, location: DocumentLimits.firstInvalidUTF8(bytes), message: "this byte is not UTF-8 text",
                fix: "save the table as UTF-8")
        }
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        let ext = (path as NSString).pathExtension.lowercased()
        let known = declared.map(\.name)
        let cells = ext == "jsonl" || ext == "ndjson" ? try jsonLines(text, file: path) : try csv(text, file: path, known: known)
        let table = Dictionary(declared.map { ($0.name, $0.value) }, uniquingKeysWith: { a, _ in a })
        var rows: [DataRow] = []
        var names: [String: Int] = [:]
        // A placeholder for a column a row leaves out reads the scene's default.
        var defaults: [String: String] = [:]
        for (name, value) in declared {
            switch value.value {
            case .string(let s): defaults[name] = s
            case .number(let x): defaults[name] = x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x)
            default: break
            }
        }
        for (index, record) in cells.enumerated() {
            let number = index + 1
            var row = DataRow(number: number, name: "row\(number)", variables: [:], fields: defaults)
            row.fields["row"] = "\(number)"
            for cell in record.cells {
                row.fields[cell.column] = cell.text
                row.cells[cell.column] = cell.location
                if cell.column == "name" {
                    row.name = cell.text
                    if table["name"] == nil { continue }
                }
                guard let declaredValue = table[cell.column] else {
                    throw unknown(cell.column, at: cell.location, file: path, known: declared.map(\.name))
                }
                // An empty cell keeps the scene's default.
                guard !cell.text.isEmpty || cell.json != nil else { continue }
                row.variables[cell.column] = try typed(cell, like: declaredValue, file: path)
            }
            for (name, value) in declared where value.value.isNull && row.variables[name] == nil {
                throw DocumentError(
                    file: path, location: SourceLocation(line: record.line, column: 1), path: name,
                    message: "row \(number) gives no \(name), which the scene requires (its default is null)",
                    fix: "give every row a value for \(name)")
            }
            if let first = names[row.name] {
                throw DocumentError(
                    file: path, location: SourceLocation(line: record.line, column: 1), path: "name",
                    message: "row \(number) is named \"\(row.name)\" like row \(first)", fix: "give each row its own name")
            }
            names[row.name] = number
            rows.append(row)
        }
        return rows
    }

    /// A column the scene has no variable for, with a "did you mean".
    static func unknown(_ column: String, at location: SourceLocation?, file: String, known: [String]) -> DocumentError {
        let suggestion = closest(column, in: known + ["name"]).map { "did you mean \($0)? " } ?? ""
        return DocumentError(
            file: file, location: location, path: column, message: "the scene declares no variable \"\(column)\"",
            fix: "\(suggestion)the scene's variables: \(known.joined(separator: ", "))")
    }

    struct Cell {
        var column: String
        var text: String
        /// The value as JSON Lines give it (nil for a CSV cell, which is text).
        var json: JSONNode?
        var location: SourceLocation
    }

    /// CSV with a header row (RFC 4180 quoting) read by CSV.swift; each field's line and column found by
    /// following the same quoting, for the messages.
    static func csv(_ text: String, file: String, known: [String]) throws(DocumentError) -> [(line: Int, cells: [Cell])] {
        let starts = fieldStarts(text)
        let reader: CSVReader
        do {
            reader = try CSVReader(string: text, hasHeaderRow: false, trimFields: false)
        } catch {
            throw DocumentError(file: file, message: "cannot be read as CSV: \(error)")
        }
        var records: [[String]] = []
        while let row = reader.next() { records.append(row) }
        guard let header = records.first, !(header.count == 1 && header[0].isEmpty) else {
            throw DocumentError(
                file: file, location: SourceLocation(line: 1, column: 1), message: "the table has no header row",
                fix: "name each column on the first line: name,color,count")
        }
        // The names so far in a set: looking each name up again in the header was quadratic (38.7 s for
        // 100,000 columns before the first unknown one was reported).
        var seen = Set<String>()
        for (i, column) in header.enumerated() {
            if column.isEmpty || seen.contains(column) {
                throw DocumentError(
                    file: file, location: starts.first.map { $0.count > i ? $0[i] : $0[0] }, path: column,
                    message: column.isEmpty ? "column \(i + 1) has no name" : "column \"\(column)\" is named twice",
                    fix: "give each column its own name")
            }
            seen.insert(column)
        }
        // A column the scene does not know is named where the header names it.
        let declared = Set(known)
        for (i, column) in header.enumerated() where column != "name" && !declared.contains(column) {
            throw unknown(column, at: starts.first.map { i < $0.count ? $0[i] : $0[0] }, file: file, known: known)
        }
        var out: [(line: Int, cells: [Cell])] = []
        for (r, record) in records.enumerated().dropFirst() {
            if record.count == 1 && record[0].isEmpty { continue }  // a blank line
            let places = r < starts.count ? starts[r] : []
            let line = places.first?.line ?? r + 1
            guard record.count == header.count else {
                throw DocumentError(
                    file: file, location: SourceLocation(line: line, column: 1),
                    message: "this row has \(record.count) cells for \(header.count) columns",
                    fix: "give every row one cell per column (quote a cell with a comma in it: \"a, b\")")
            }
            guard out.count < maximumRows else {
                throw DocumentError(
                    file: file, location: SourceLocation(line: line, column: 1), message: "more than \(maximumRows) rows")
            }
            out.append(
                (
                    line,
                    record.enumerated().map { k, value in
                        Cell(
                            column: header[k], text: value, json: nil,
                            location: k < places.count ? places[k] : SourceLocation(line: line, column: 1))
                    }
                ))
        }
        return out
    }

    /// Where each field of each record starts (line, column), following RFC 4180's quoting as the
    /// parser does: a delimiter or line break inside quotes is text.
    static func fieldStarts(_ text: String) -> [[SourceLocation]] {
        var records: [[SourceLocation]] = [[SourceLocation(line: 1, column: 1)]]
        var line = 1, column = 1, quoted = false
        for c in text {
            if c == "\"" { quoted.toggle() }
            if !quoted && (c == "\n" || c == "\r\n" || c == "\r") {
                line += 1
                column = 1
                records.append([SourceLocation(line: line, column: 1)])
                continue
            }
            if c == "\n" || c == "\r\n" || c == "\r" {
                line += 1
                column = 1
                continue
            }
            column += 1
            if !quoted && c == "," { records[records.count - 1].append(SourceLocation(line: line, column: column)) }
        }
        return records
    }

    /// JSON Lines: one object a line, its keys the columns.
    static func jsonLines(_ text: String, file: String) throws(DocumentError) -> [(line: Int, cells: [Cell])] {
        var out: [(line: Int, cells: [Cell])] = []
        for (i, raw) in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).enumerated()
        {
            let lineText = raw.trimmingCharacters(in: .whitespaces)
            guard !lineText.isEmpty else { continue }
            let line = i + 1
            let node: JSONNode
            do {
                node = try JSONParser.parse(Array(raw.utf8))
            } catch {
                throw DocumentError(
                    file: file, location: SourceLocation(line: line, column: error.location.column), message: error.message,
                    fix: "write one JSON object a line")
            }
            guard case .object(let members) = node.value else {
                throw DocumentError(
                    file: file, location: SourceLocation(line: line, column: 1), message: "expected an object on this line",
                    fix: "write one JSON object a line: {\"name\": \"ann\", \"count\": 3}")
            }
            guard out.count < maximumRows else {
                throw DocumentError(
                    file: file, location: SourceLocation(line: line, column: 1), message: "more than \(maximumRows) rows")
            }
            out.append(
                (
                    line,
                    members.map { m in
                        let text: String
                        switch m.value.value {
                        case .string(let s): text = s
                        case .number(let x): text = x == x.rounded() && abs(x) < 1e15 ? String(Int(x)) : String(x)
                        case .bool(let b): text = b ? "true" : "false"
                        default: text = ""
                        }
                        return Cell(
                            column: m.key, text: text, json: m.value,
                            location: SourceLocation(line: line, column: m.keyLocation.column))
                    }
                ))
        }
        return out
    }

    /// A cell's value in the type of the variable's default: a number, a colour, a point, a flag, or text.
    static func typed(_ cell: Cell, like declared: JSONNode, file: String) throws(DocumentError) -> JSONNode {
        func fail(_ expected: String, _ example: String) -> DocumentError {
            DocumentError(
                file: file, location: cell.location, path: cell.column,
                message: "\(cell.column) is \(expected), got \"\(cell.text)\"", fix: "write e.g. \(example)")
        }
        let at = cell.location
        switch declared.value {
        case .number:
            if let json = cell.json, case .number = json.value { return json }
            guard let v = Double(cell.text.trimmingCharacters(in: .whitespaces)), v.isFinite else {
                throw fail("a number", "42 or 0.5")
            }
            return JSONNode(value: .number(v), location: at)
        case .bool:
            if let json = cell.json, case .bool = json.value { return json }
            switch cell.text.lowercased() {
            case "true", "yes", "1": return JSONNode(value: .bool(true), location: at)
            case "false", "no", "0": return JSONNode(value: .bool(false), location: at)
            default: throw fail("true or false", "true")
            }
        case .string(let s) where Color(hex: s) != nil:
            guard Color(hex: cell.text) != nil else { throw fail("a colour", "#ff3b30") }
            return JSONNode(value: .string(cell.text), location: at)
        case .string:
            return JSONNode(value: .string(cell.text), location: at)
        case .array(let items) where items.count == 2:
            if let json = cell.json, case .array(let given) = json.value, given.count == 2 { return json }
            let parts = cell.text.trimmingCharacters(in: CharacterSet(charactersIn: "[] ")).split(whereSeparator: {
                $0 == "," || $0 == " "
            })
            guard parts.count == 2, let x = Double(parts[0]), let y = Double(parts[1]) else {
                throw fail("a point", "\"120 80\" or \"[120, 80]\"")
            }
            return JSONNode(
                value: .array([JSONNode(value: .number(x), location: at), JSONNode(value: .number(y), location: at)]),
                location: at)
        default:
            if let json = cell.json { return json }
            throw fail("a value a table cell cannot hold", "give it in a manifest's variants instead")
        }
    }
}

extension JSONNode.Value {
    fileprivate var isNull: Bool {
        if case .null = self { return true }
        return false
    }
}
