/// libvterm behind one owner: a terminal of a given size fed a program's output bytes, its screen read
/// back as values. The only file that touches libvterm's handle.
internal import CVTerm

/// A terminal emulator (libvterm): bytes in, screens out. Rows the bytes did not touch keep their
/// storage from one screen to the next, so a screen costs what changed. One thread at a time.
public final class TerminalEmulator {
    /// What libvterm's callbacks report between two reads of the screen.
    private final class Changes {
        var rows: [Bool]
        var cursorVisible = true
        var reverse = false
        var cursorShape = TerminalCursorStyle.Shape.block
        var cursorBlinks = true

        init(rows: Int) { self.rows = Array(repeating: true, count: rows) }
    }

    private let terminal: OpaquePointer
    private let screenHandle: OpaquePointer
    private let state: OpaquePointer
    private let callbacks: UnsafeMutablePointer<VTermScreenCallbacks>
    private let changes: Changes
    private var screen: TerminalScreen

    /// A blank terminal of `columns` × `rows` cells (held to `TerminalLimits`, which the readers check).
    public init(columns: Int, rows: Int) {
        let (columns, rows) = Self.held(columns, rows)
        terminal = vterm_new(Int32(rows), Int32(columns))
        vterm_set_utf8(terminal, 1)
        // Replies to the program's queries (cursor position, device attributes) have nobody to read them.
        vterm_output_set_callback(terminal, { _, _, _ in }, nil)
        state = vterm_obtain_state(terminal)
        screenHandle = vterm_obtain_screen(terminal)
        changes = Changes(rows: rows)
        callbacks = .allocate(capacity: 1)
        callbacks.initialize(to: VTermScreenCallbacks())
        callbacks.pointee.damage = { rect, user in
            let changes = Unmanaged<Changes>.fromOpaque(user!).takeUnretainedValue()
            let top = max(Int(rect.start_row), 0), bottom = min(Int(rect.end_row), changes.rows.count)
            if top < bottom { for r in top..<bottom { changes.rows[r] = true } }
            return 1
        }
        callbacks.pointee.settermprop = { prop, value, user in
            let changes = Unmanaged<Changes>.fromOpaque(user!).takeUnretainedValue()
            switch prop {
            case VTERM_PROP_CURSORVISIBLE: changes.cursorVisible = value!.pointee.boolean != 0
            case VTERM_PROP_REVERSE: changes.reverse = value!.pointee.boolean != 0
            case VTERM_PROP_CURSORBLINK: changes.cursorBlinks = value!.pointee.boolean != 0
            case VTERM_PROP_CURSORSHAPE:
                switch Int(value!.pointee.number) {
                case Int(VTERM_PROP_CURSORSHAPE_UNDERLINE): changes.cursorShape = .underline
                case Int(VTERM_PROP_CURSORSHAPE_BAR_LEFT): changes.cursorShape = .bar
                default: changes.cursorShape = .block
                }
            default: break
            }
            return 1
        }
        screen = TerminalScreen(columns: columns, rows: rows)
        vterm_screen_set_callbacks(screenHandle, callbacks, Unmanaged.passUnretained(changes).toOpaque())
        vterm_screen_enable_altscreen(screenHandle, 1)
        vterm_screen_reset(screenHandle, 1)
    }

    deinit {
        vterm_free(terminal)
        callbacks.deinitialize(count: 1)
        callbacks.deallocate()
    }

    /// Interprets a program's output.
    public func write(_ bytes: ArraySlice<UInt8>) {
        guard !bytes.isEmpty else { return }
        bytes.withUnsafeBytes { raw in
            _ = vterm_input_write(terminal, raw.baseAddress!.assumingMemoryBound(to: CChar.self), raw.count)
        }
    }

    /// The terminal takes a new size (what a window resize does); what the screen holds is kept where it fits.
    public func resize(columns: Int, rows: Int) {
        let (columns, rows) = Self.held(columns, rows)
        vterm_set_size(terminal, Int32(rows), Int32(columns))
        changes.rows = Array(repeating: true, count: rows)
        screen = TerminalScreen(columns: columns, rows: rows)
    }

    /// The screen as the bytes so far left it.
    public func currentScreen() -> TerminalScreen {
        vterm_screen_flush_damage(screenHandle)
        for r in 0..<screen.rows where changes.rows[r] {
            screen.lines[r] = line(r)
            changes.rows[r] = false
        }
        var position = VTermPos()
        vterm_state_get_cursorpos(state, &position)
        screen.cursor =
            changes.cursorVisible
            ? (min(max(Int(position.row), 0), screen.rows - 1), min(max(Int(position.col), 0), screen.columns - 1)) : nil
        screen.reverse = changes.reverse
        screen.cursorStyle =
            changes.cursorShape == .block && changes.cursorBlinks
            ? nil : TerminalCursorStyle(shape: changes.cursorShape, blinks: changes.cursorBlinks)
        return screen
    }

    /// A size within the limits: 1…maximum a side, and the rows cut to keep the cells within theirs.
    static func held(_ columns: Int, _ rows: Int) -> (Int, Int) {
        let c = min(max(columns, 1), TerminalLimits.maximumColumns)
        return (c, min(max(rows, 1), TerminalLimits.maximumRows, TerminalLimits.maximumCells / c))
    }

    private func line(_ row: Int) -> TerminalLine {
        var cells: [TerminalCell] = []
        cells.reserveCapacity(screen.columns)
        var cell = VTermScreenCell()
        for column in 0..<screen.columns {
            guard vterm_screen_get_cell(screenHandle, VTermPos(row: Int32(row), col: Int32(column)), &cell) != 0 else {
                cells.append(.blank)
                continue
            }
            var text = ""
            var continuation = false
            withUnsafeBytes(of: cell.chars) { raw in
                for k in 0..<Int(VTERM_MAX_CHARS_PER_CELL) {
                    let c = raw.load(fromByteOffset: k * 4, as: UInt32.self)
                    if c == 0 { break }
                    if c == UInt32.max {
                        continuation = true
                        break
                    }
                    text.unicodeScalars.append(Unicode.Scalar(c) ?? "\u{FFFD}")
                }
            }
            let flags = reel_vterm_cell_flags(&cell)
            cells.append(
                TerminalCell(
                    text: text == " " ? "" : text, width: continuation ? 0 : UInt8(max(1, min(Int(cell.width), 2))),
                    foreground: color(&cell.fg, isDefault: reel_vterm_color_is_default_fg(&cell.fg) != 0),
                    background: color(&cell.bg, isDefault: reel_vterm_color_is_default_bg(&cell.bg) != 0),
                    style: TerminalStyle(rawValue: UInt8(truncatingIfNeeded: flags))))
        }
        return TerminalLine(cells: cells)
    }

    private func color(_ c: inout VTermColor, isDefault: Bool) -> TerminalColor {
        if isDefault { return .default }
        if reel_vterm_color_is_indexed(&c) != 0 { return .indexed(c.indexed.idx) }
        return .rgb(TerminalRGB(c.rgb.red, c.rgb.green, c.rgb.blue))
    }
}
