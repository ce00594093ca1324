/// What a terminal shows at one moment, as values: each cell's character, colours and style, and the
/// cursor. The emulator makes them (TerminalEmulator.swift); the renderer draws them.

/// A cell's colour as the program set it: the theme's default, one of the 256 palette entries, or a
/// colour of its own (24-bit). The theme turns it into a colour when the cell is drawn.
public enum TerminalColor: Sendable, Hashable {
    case `default`
    case indexed(UInt8)
    case rgb(TerminalRGB)
}

/// A cell's character style (SGR attributes).
public struct TerminalStyle: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let bold = TerminalStyle(rawValue: 1)
    public static let italic = TerminalStyle(rawValue: 2)
    public static let underline = TerminalStyle(rawValue: 4)
    public static let doubleUnderline = TerminalStyle(rawValue: 8)
    /// Foreground and background swapped.
    public static let inverse = TerminalStyle(rawValue: 16)
    public static let strikethrough = TerminalStyle(rawValue: 32)
    public static let blink = TerminalStyle(rawValue: 64)
}

/// One cell of the grid.
public struct TerminalCell: Sendable, Hashable {
    /// The character with its combining marks; empty for a blank cell and for the second half of a
    /// wide character.
    public var text: String
    /// Columns the character takes: 1, or 2 for a wide (CJK, emoji) one; 0 for a wide character's
    /// second half.
    public var width: UInt8
    public var foreground: TerminalColor
    public var background: TerminalColor
    public var style: TerminalStyle

    public init(
        text: String = "", width: UInt8 = 1, foreground: TerminalColor = .default, background: TerminalColor = .default,
        style: TerminalStyle = []
    ) {
        self.text = text
        self.width = width
        self.foreground = foreground
        self.background = background
        self.style = style
    }

    public static let blank = TerminalCell()
}

/// One row of cells. A row the program did not touch is the same storage in the screens before and after.
public struct TerminalLine: Sendable, Hashable {
    public var cells: [TerminalCell]

    public init(cells: [TerminalCell]) { self.cells = cells }
}

/// A cursor's look as a program asks for it.
public struct TerminalCursorStyle: Sendable, Hashable {
    public enum Shape: Sendable, Hashable {
        case block, underline, bar
    }
    public var shape: Shape
    public var blinks: Bool

    public init(shape: Shape, blinks: Bool) {
        self.shape = shape
        self.blinks = blinks
    }
}

/// The whole screen at one moment.
public struct TerminalScreen: Sendable, Hashable {
    public var columns: Int
    public var rows: Int
    /// `rows` lines of `columns` cells, top first.
    public var lines: [TerminalLine]
    /// Where the cursor is (row, column from the top left, 0-based), nil while the program hides it.
    public var cursor: (row: Int, column: Int)?
    /// The whole screen shown in reverse video (DECSCNM).
    public var reverse = false
    /// The cursor's look as the program set it (DECSCUSR: vim's insert mode asks for a bar), nil for the
    /// terminal's own: a blinking block (DECSCUSR 0 and 1, and a reset) is taken as that, as libvterm
    /// tells the two apart no further.
    public var cursorStyle: TerminalCursorStyle?

    public init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
        lines = Array(repeating: TerminalLine(cells: Array(repeating: .blank, count: columns)), count: rows)
        cursor = (0, 0)
    }

    public static func == (a: TerminalScreen, b: TerminalScreen) -> Bool {
        a.columns == b.columns && a.rows == b.rows && a.reverse == b.reverse && a.cursor?.row == b.cursor?.row
            && a.cursor?.column == b.cursor?.column && a.cursorStyle == b.cursorStyle && a.lines == b.lines
    }

    public func hash(into h: inout Hasher) {
        h.combine(columns)
        h.combine(rows)
        h.combine(reverse)
        h.combine(cursor?.row)
        h.combine(cursor?.column)
        h.combine(cursorStyle)
        h.combine(lines)
    }

    /// The screen's text, one line per row with trailing blanks dropped (for messages and tests).
    public var text: String {
        lines.map { line in
            var s = line.cells.map { $0.width == 0 ? "" : ($0.text.isEmpty ? " " : $0.text) }.joined()
            while s.last == " " { s.removeLast() }
            return s
        }.joined(separator: "\n")
    }
}
