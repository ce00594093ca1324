// Damage: a frame holding one list's picture, with only the damaged rows drawn again for another list, must
// equal that list drawn whole, byte for byte; and a small change must damage few rows.
import Foundation
import ReelGeometry
import ReelRaster
import ReelTestSupport
import Testing

@Suite struct DamageTests {
    typealias Seeded = SeededGenerator

    static let width = 96, height = 160

    /// A random item: a fill, a stroke, or a group (opacity, clip, shadow, mask, tint, blend) of items.
    static func item(_ g: inout Seeded, depth: Int) -> [DisplayList.Command] {
        func color() -> Color {
            Color(
                red: .random(in: 0...1, using: &g), green: .random(in: 0...1, using: &g), blue: .random(in: 0...1, using: &g),
                alpha: [1, 0.6, 0.3].randomElement(using: &g)!)
        }
        func shape() -> Path {
            let x = Double.random(in: -10...Double(width), using: &g), y = Double.random(in: -10...Double(height), using: &g)
            let w = Double.random(in: 1...30, using: &g), h = Double.random(in: 1...24, using: &g)
            return Bool.random(using: &g)
                ? Path(rect: Rect(x: x, y: y, width: w, height: h)) : Path(ovalIn: Rect(x: x, y: y, width: w, height: h))
        }
        switch Int.random(in: 0..<(depth < 2 ? 6 : 4), using: &g) {
        case 0, 1, 2:
            return [.fill(path: shape(), paint: .solid(color()), opacity: Bool.random(using: &g) ? 1 : 0.5, rule: .nonZero)]
        case 3:
            var style = StrokeStyle()
            style.lineWidth = .random(in: 0.5...6, using: &g)
            let angle = Double.random(in: 0...3, using: &g)
            // Turned about the origin and sheared a little: the pen's shape is mapped too.
            let turn = Transform2D(a: cos(angle), b: sin(angle), c: -sin(angle) + 0.2, d: cos(angle), tx: 40, ty: 50)
            return [.stroke(path: shape(), style: style, transform: turn, paint: .solid(color()), opacity: 1)]
        default:
            var group = Group(opacity: [1, 0.7].randomElement(using: &g)!)
            if Bool.random(using: &g) {
                group.shadow = Shadow(
                    color: color(), offset: Point(x: .random(in: -6...6, using: &g), y: .random(in: -9...9, using: &g)),
                    sigma: .random(in: 0...5, using: &g))
            }
            if Int.random(in: 0..<3, using: &g) == 0 { group.clip = shape() }
            if Int.random(in: 0..<4, using: &g) == 0 { group.tint = color() }
            if Int.random(in: 0..<4, using: &g) == 0 {
                group.blendMode = [.multiply, .screen, .difference].randomElement(using: &g)!
            }
            if Int.random(in: 0..<4, using: &g) == 0 {
                // Blurs on both sides of the coarse grid's σ (8), and a colour matrix that inverts.
                group.filters = [
                    .blur(sigma: .random(in: 0.5...11, using: &g)),
                    .colorMatrix(ColorMatrix([-1, 0, 0, 0, 1, 0, -1, 0, 0, 1, 0, 0, -1, 0, 1, 0, 0, 0, 1, 0])),
                ].shuffled(using: &g)
            }
            if Int.random(in: 0..<4, using: &g) == 0 {
                // Frosted glass over what the list draws before the group.
                group.backdropFilters = [.blur(sigma: .random(in: 0.5...11, using: &g))]
                group.backdropClip = shape()
            }
            group.hasMask = Int.random(in: 0..<3, using: &g) == 0
            group.maskInverted = group.hasMask && Bool.random(using: &g)
            var out: [DisplayList.Command] = [.beginGroup(group)]
            for _ in 0..<Int.random(in: 1...3, using: &g) { out += item(&g, depth: depth + 1) }
            if group.hasMask {
                out.append(.beginMask)
                out += item(&g, depth: depth + 1)
            }
            out.append(.endGroup)
            return out
        }
    }

    static func items(_ g: inout Seeded, count: Int) -> [[DisplayList.Command]] {
        (0..<count).map { _ in item(&g, depth: 0) }
    }

    /// The next frame's items: one item moved, replaced, removed or added, or a group's settings changed.
    static func change(_ items: [[DisplayList.Command]], _ g: inout Seeded) -> [[DisplayList.Command]] {
        var out = items
        let i = Int.random(in: 0..<out.count, using: &g)
        switch Int.random(in: 0..<5, using: &g) {
        case 0:
            let dy = Double.random(in: -8...8, using: &g)
            out[i] = out[i].map { c in
                if case .fill(let p, let paint, let o, let r) = c {
                    return .fill(path: p.applying(.translation(x: 1, y: dy)), paint: paint, opacity: o, rule: r)
                }
                return c
            }
        case 1: out[i] = item(&g, depth: 0)
        case 2: if out.count > 1 { out.remove(at: i) }
        case 3: out.insert(item(&g, depth: 0), at: i)
        default:
            out[i] = out[i].map { c in
                if case .beginGroup(var group) = c {
                    group.opacity = group.opacity == 1 ? 0.4 : 1
                    group.shadow?.offset.y += 3
                    return .beginGroup(group)
                }
                return c
            }
        }
        return out
    }

    static func list(_ items: [[DisplayList.Command]]) -> DisplayList {
        DisplayList(background: Color(red: 0.9, green: 0.95, blue: 1), commands: items.flatMap { $0 })
    }

    /// Seeded chains of changes: each frame drawn over the picture of the frame before (only its damaged
    /// rows, from the list cut to them) equals the frame drawn whole. Exact.
    /// Where the damage is narrower than the frame, the pixels outside its columns are put back and the
    /// list is cut to what paints the damaged columns: exact too.
    /// Each chain must also damage fewer rows than the frame's, and fewer columns, at some step, or it
    /// tests nothing.
    @Test(arguments: 0..<16) func damagedRowsDrawnOverTheFrameBeforeGiveTheWholeFrame(seed: UInt64) throws {
        var g = Seeded(state: seed)
        var items = Self.items(&g, count: 8)
        let rasterizer = Rasterizer(threads: 2, bandHeight: 7)
        var frame = try rasterizer.render(Self.list(items), width: Self.width, height: Self.height)
        var partial = 0, narrow = 0
        for step in 0..<10 {
            let before = Self.list(items)
            items = Self.change(items, &g)
            let after = Self.list(items)
            let rows = after.damage(since: before, height: Self.height)
            let cut = try #require(after.keeping(rows: rows))
            if rows.rowCount < Self.height { partial += 1 }
            if let c = rows.columns, !rows.isEmpty, c.lowerBound > 0 || c.upperBound < Self.width { narrow += 1 }
            try rasterizer.render(cut, into: &frame, rows: rows)
            let whole = try rasterizer.render(after, width: Self.width, height: Self.height)
            let firstRow = Self.firstDifferingRow(frame, whole)
            #expect(firstRow == nil, "seed \(seed), step \(step): damaged rows \(rows.ranges)")
            if firstRow != nil { return }
        }
        #expect(partial > 0)
        #expect(narrow > 0)
    }

    /// The first row where two frames differ (nil: none), for a message shorter than the frames.
    static func firstDifferingRow(_ a: Frame, _ b: Frame) -> Int? {
        (0..<a.height).first { y in
            a.pixels[(y * a.stride)..<((y + 1) * a.stride)] != b.pixels[(y * b.stride)..<((y + 1) * b.stride)]
        }
    }

    /// A 6 px dot moved 4 px down among 200 shapes that stay: the damage is the rows the dot leaves and
    /// the rows it enters (with a row of slack each side), nothing else. Hand-computed: the dot spans rows
    /// 50–56 and then 54–60, so rows 49 ..< 61 are damaged.
    @Test func aMovingDotDamagesItsOwnRows() {
        var g = Seeded(state: 7)
        let still = (0..<200).map { _ in Self.item(&g, depth: 2) }.flatMap { $0 }
        func frame(dotY: Double) -> DisplayList {
            DisplayList(
                background: .white,
                commands: still + [.fill(path: Path(ovalIn: Rect(x: 40, y: dotY, width: 6, height: 6)), color: .black)])
        }
        let rows = frame(dotY: 54).damage(since: frame(dotY: 50), height: Self.height)
        #expect(rows.ranges == [49..<61])
        // And its own columns: 40–46, with a column of slack each side.
        #expect(rows.columns == 39..<47)
        #expect(frame(dotY: 50).damage(since: frame(dotY: 50), height: Self.height).isEmpty)
        // The cut list keeps only what paints those rows.
        let cut = frame(dotY: 54).keeping(rows: rows)!
        #expect(cut.commands.count < still.count / 2)
    }

    /// Columns are kept where they leave out most commands: a dot moving among ten bars side by side keeps
    /// its columns (the dot and at most two bars of the eleven along its rows paint them); among ten bars
    /// as wide as the frame every command paints them, and the damage is the rows, every column.
    @Test func columnsAreKeptWhereTheyLeaveMostCommandsOut() {
        func list(dotX: Double, wide: Bool) -> DisplayList {
            let bars: [DisplayList.Command] = (0..<10).map { k in
                .fill(
                    path: Path(rect: Rect(x: wide ? 0 : Double(k * 10), y: Double(k), width: wide ? 96 : 8, height: 20)),
                    color: .black)
            }
            return DisplayList(
                background: .white,
                commands: bars + [.fill(path: Path(ovalIn: Rect(x: dotX, y: 4, width: 6, height: 6)), color: .black)])
        }
        for wide in [false, true] {
            let after = list(dotX: 42, wide: wide)
            let damage = after.damage(since: list(dotX: 40, wide: wide), height: Self.height)
            #expect(damage.columns == 39..<49)
            #expect(damage.narrowed(for: after).columns == (wide ? nil : 39..<49), "wide: \(wide)")
            #expect(damage.narrowed(for: after).ranges == damage.ranges)
        }
    }

    /// A group's shadow reaches beyond its content: a change inside the group damages the rows its shadow
    /// moves to. A 4-row shape at rows 10–14 under a shadow 40 px down with σ 2 damages rows 50–54 too.
    @Test func aChangeUnderAShadowDamagesTheShadowsRows() throws {
        func list(_ x: Double) -> DisplayList {
            DisplayList(
                background: .white,
                commands: [
                    .beginGroup(Group(shadow: Shadow(color: .black, offset: Point(x: 0, y: 40), sigma: 2))),
                    .fill(path: Path(rect: Rect(x: x, y: 10, width: 4, height: 4)), color: .black), .endGroup,
                ])
        }
        let rows = list(12).damage(since: list(10), height: Self.height)
        #expect(rows.meets(50..<54))
        #expect(rows.meets(10..<14))
        // Columns 10–16 (the shape before and after) and the shadow's blur beyond them, 3σ = 6 px each side.
        let columns = try #require(rows.columns)
        #expect(columns.lowerBound <= 4 && columns.upperBound >= 22)
    }

    /// A backdrop shows what lies below it, blurred: a dot moving under frosted glass damages the whole
    /// glass (the blur spreads the dot over it), and the list cut to that damage keeps the bar above the
    /// glass that the blur reaches (σ 4 reads 14 rows past the glass's top at row 30), so the damaged rows
    /// drawn over the frame before give the frame drawn whole.
    @Test func aChangeUnderFrostedGlassDamagesTheGlass() throws {
        func list(_ dotY: Double) -> DisplayList {
            var glass = Group()
            glass.backdropFilters = [.blur(sigma: 4)]
            glass.backdropClip = Path(rect: Rect(x: 10, y: 30, width: 60, height: 40))
            return DisplayList(
                background: .white,
                commands: [
                    .fill(path: Path(rect: Rect(x: 0, y: 20, width: 80, height: 8)), color: .black),
                    .fill(path: Path(ovalIn: Rect(x: 30, y: dotY, width: 6, height: 6)), color: .black),
                    .beginGroup(glass), .endGroup,
                ])
        }
        let rasterizer = Rasterizer(threads: 2, bandHeight: 7)
        var frame = try rasterizer.render(list(50), width: Self.width, height: Self.height)
        let after = list(52)
        let rows = after.damage(since: list(50), height: Self.height)
        #expect(rows.meets(30..<31) && rows.meets(69..<70) && !rows.meets(0..<20))
        try rasterizer.render(try #require(after.keeping(rows: rows)), into: &frame, rows: rows)
        #expect(Self.firstDifferingRow(frame, try rasterizer.render(after, width: Self.width, height: Self.height)) == nil)
    }

    /// Unbalanced groups leave the cut to the rasterizer, which reports them.
    @Test func unbalancedGroupsAreNotCut() {
        let list = DisplayList(background: .white, commands: [.beginGroup(Group())])
        #expect(list.keeping(rows: .all(height: 10)) == nil)
        #expect(list.damage(since: DisplayList(background: .white), height: 10) == .all(height: 10))
    }

    /// A kept run both lists hold at the same place (same token, same range) is taken as the same commands
    /// and not compared: told a run whose commands differ, damage sees only the change outside it. Once
    /// the commands are changed the runs are forgotten, and the difference inside shows again.
    @Test func keptRunsAtTheSamePlaceAreNotCompared() {
        func bar(_ y: Double, _ red: Double) -> DisplayList.Command {
            .fill(path: Path(rect: Rect(x: 0, y: y, width: 20, height: 4)), color: Color(red: red, green: 0, blue: 0))
        }
        var before = DisplayList(background: .white, commands: [bar(0, 0), bar(40, 0), bar(100, 0)])
        var after = DisplayList(background: .white, commands: [bar(0, 1), bar(40, 1), bar(100, 1)])
        before.keptRuns = [DisplayList.KeptRun(range: 0..<2, token: 7)]
        after.keptRuns = [DisplayList.KeptRun(range: 0..<2, token: 7)]
        #expect(after.damage(since: before, height: 160).ranges == [99..<105])
        after.keptRuns = [DisplayList.KeptRun(range: 0..<2, token: 8)]
        #expect(
            after.damage(since: before, height: 160).ranges
                == [-1..<5, 39..<45, 99..<105].map { max(0, $0.lowerBound)..<$0.upperBound })
        after.keptRuns = [DisplayList.KeptRun(range: 0..<2, token: 7)]
        after.commands[2] = bar(100, 0.5)
        #expect(after.keptRuns.isEmpty)
        #expect(after.damage(since: before, height: 160).ranges.count == 3)
    }

    /// Kept runs take their rows from their own list, made once: the damage and the cut are those of the
    /// same list with no runs marked, for runs at the top (taken) and runs inside a group (not taken, as
    /// the group widens them), over seeded chains of changes outside the runs.
    @Test(arguments: 0..<8) func keptRunsGiveTheRowsOfTheirCommands(seed: UInt64) throws {
        var g = Seeded(state: seed)
        let first = Self.items(&g, count: 3).flatMap { $0 }, last = Self.items(&g, count: 3).flatMap { $0 }
        var middle = Self.items(&g, count: 4)
        // A run inside a group: the group's begin, two fills, its end.
        let inner = [DisplayList.Command.fill(path: Path(rect: Rect(x: 5, y: 70, width: 9, height: 9)), color: .black)]
        let shadowed = Group(opacity: 1, shadow: Shadow(color: .black, offset: Point(x: 0, y: 6), sigma: 3))
        let grouped = [DisplayList.Command.beginGroup(shadowed)] + inner + inner + [.endGroup]
        var token = Int(seed) * 100
        func marked(_ middle: [[DisplayList.Command]], runs: Bool) -> DisplayList {
            var list = Self.list([first] + middle + [grouped, last])
            guard runs else { return list }
            let lastStart = list.commands.count - last.count, innerStart = lastStart - grouped.count + 1
            token += 3
            list.keptRuns = [
                DisplayList.KeptRun(range: 0..<first.count, token: token),
                DisplayList.KeptRun(range: innerStart..<innerStart + 2, token: token + 1),
                DisplayList.KeptRun(range: lastStart..<list.commands.count, token: token + 2),
            ]
            return list
        }
        for _ in 0..<6 {
            let before = middle
            middle = Self.change(middle, &g)
            // Fresh tokens each time: nothing is passed over as shared, only the rows are the runs'.
            let plainRows = marked(middle, runs: false).damage(since: marked(before, runs: false), height: Self.height)
            let runRows = marked(middle, runs: true).damage(since: marked(before, runs: true), height: Self.height)
            #expect(runRows == plainRows)
            #expect(marked(middle, runs: true).keeping(rows: runRows) == marked(middle, runs: false).keeping(rows: plainRows))
        }
    }
}
