/// Damage: the rows and columns where one display list paints differently from another, and a list cut
/// down to them.
import ReelGeometry

/// Frame rows as a sorted set of disjoint ranges, and the columns within them: what a frame must draw
/// again.
public struct DamagedRows: Sendable, Equatable {
    /// Sorted, disjoint, non-empty ranges within the frame.
    public private(set) var ranges: [Range<Int>]
    /// The columns of those rows that may differ (one span for all of them, not held to the frame); nil:
    /// every column.
    public var columns: Range<Int>? { everyColumn ? nil : span }
    private var span: Range<Int>?
    private var everyColumn: Bool

    public static let none = DamagedRows(ranges: [], span: nil, everyColumn: false)

    public static func all(height: Int) -> DamagedRows {
        DamagedRows(ranges: height > 0 ? [0..<height] : [], span: nil, everyColumn: true)
    }

    public var isEmpty: Bool { ranges.isEmpty }
    public var rowCount: Int { ranges.reduce(0) { $0 + $1.count } }

    public func covers(height: Int) -> Bool { ranges == [0..<height] || (height <= 0 && ranges.isEmpty) }

    /// Whether any damaged row is in `rows`.
    public func meets(_ rows: Range<Int>) -> Bool {
        // Few ranges (one a region that moved): a walk beats a search.
        ranges.contains { $0.overlaps(rows) }
    }

    /// The same rows with every column, unless drawing by columns pays: where the commands of `list` that
    /// paint the damaged columns are at most half of those that paint the damaged rows. A dot moving
    /// across a 1080p frame of 2,000 still shapes keeps a few of the hundred along its rows; a Lottie
    /// file's frames keep most of theirs, and there putting back the rest of each row cost more than
    /// the commands left out saved (web-bacon, `reel-bench-frames`: 1,330 against 1,450 frames a second).
    public func narrowed(for list: DisplayList) -> DamagedRows {
        guard columns != nil, let reach = list.commandRows else { return self }
        var byRows = 0, byBoth = 0, i = 0
        while i < reach.end.count {
            let end = reach.end[i]
            if let a = reach.areas[i] {
                if meets(a.rows) {
                    byRows += end - i
                    if meets(a) { byBoth += end - i }
                }
            } else {
                byRows += end - i
                byBoth += end - i
            }
            i = end
        }
        guard byBoth * 2 > byRows else { return self }
        var all = self
        all.everyColumn = true
        return all
    }

    /// Whether any damaged row and column is in `area` (nil: unbounded).
    func meets(_ area: PaintedArea?) -> Bool {
        guard let area else { return true }
        return meets(area.rows) && (columns.map { $0.overlaps(area.columns) } ?? true)
    }

    /// Both damages' rows, and columns.
    public mutating func formUnion(_ other: DamagedRows) {
        for r in other.ranges { insert(PaintedArea(rows: r, columns: other.span ?? 0..<1), height: Int.max / 4) }
        if other.everyColumn && !other.ranges.isEmpty { everyColumn = true }
    }

    /// The rows and columns of `area` made part of the damage, its rows held to `0 ..< height`.
    mutating func insert(_ area: PaintedArea, height: Int) {
        let lo = max(0, area.rows.lowerBound), hi = min(height, area.rows.upperBound)
        guard lo < hi, !area.columns.isEmpty else { return }
        span =
            span.map { min($0.lowerBound, area.columns.lowerBound)..<max($0.upperBound, area.columns.upperBound) } ?? area.columns
        let r = lo..<hi
        var merged = r
        var kept: [Range<Int>] = []
        kept.reserveCapacity(ranges.count + 1)
        for x in ranges {
            // Touching ranges merge too: a band is drawn whole either way.
            if x.upperBound < merged.lowerBound || x.lowerBound > merged.upperBound {
                kept.append(x)
            } else {
                merged = min(x.lowerBound, merged.lowerBound)..<max(x.upperBound, merged.upperBound)
            }
        }
        kept.append(merged)
        kept.sort { $0.lowerBound < $1.lowerBound }
        ranges = kept
    }
}

extension DisplayList {
    /// The rows of a `height`-row frame where this list paints differently from `before`, and the
    /// columns within them: drawing just those over a frame that holds `before`'s picture gives this
    /// list's picture, byte for byte (a row's pixels do not depend on which rows are drawn with it: see
    /// `Rasterizer`; a pixel's, on which commands that paint none of its column are drawn).
    ///
    /// Lists of the same length are compared command by command; otherwise the commands between their
    /// common start and common end are taken as changed. A changed command damages the rows it can paint
    /// in both lists, in its context: widened by the filters and shadows of the groups it is in, and for a group's
    /// begin, end or mask the rows of the whole group (its opacity, clip, tint or blend apply to all of
    /// its content). Conservative, never short: a command's area comes from its control points.
    public func damage(since before: DisplayList, height: Int) -> DamagedRows {
        guard background == before.background else { return .all(height: height) }
        let new = commands, old = before.commands
        var changedNew: [Int] = [], changedOld: [Int] = []
        if new.count == old.count {
            // The kept runs both lists have at the same place are the same commands.
            let shared = Set(before.keptRuns).intersection(keptRuns).map(\.range).sorted { $0.lowerBound < $1.lowerBound }
            var i = 0, next = 0
            while i < new.count {
                if next < shared.count && shared[next].lowerBound <= i {
                    i = max(i, shared[next].upperBound)
                    next += 1
                    continue
                }
                if new[i] != old[i] {
                    changedNew.append(i)
                    changedOld.append(i)
                }
                i += 1
            }
        } else {
            var start = 0
            while start < min(new.count, old.count) && new[start] == old[start] { start += 1 }
            var end = 0
            while end < min(new.count, old.count) - start && new[new.count - 1 - end] == old[old.count - 1 - end] { end += 1 }
            changedNew = Array(start..<(new.count - end))
            changedOld = Array(start..<(old.count - end))
        }
        if changedNew.isEmpty && changedOld.isEmpty { return .none }
        var damage = DamagedRows.none
        if !changedNew.isEmpty {
            guard let areas = commandRows else { return .all(height: height) }
            for i in changedNew {
                guard let a = areas.areas[i] else { return .all(height: height) }
                damage.insert(a, height: height)
            }
        }
        if !changedOld.isEmpty {
            guard let areas = before.commandRows else { return .all(height: height) }
            for i in changedOld {
                guard let a = areas.areas[i] else { return .all(height: height) }
                damage.insert(a, height: height)
            }
        }
        // A backdrop shows what is drawn below it, filtered: damage within its filters' reach of it
        // damages all of it (in order, as a backdrop damaged so may lie below a later one).
        if let rows = commandRows {
            for b in rows.backdrops where !damage.isEmpty && damage.meets(b.reach) { damage.insert(b.area, height: height) }
        }
        return damage
    }

    /// The list without the top-level commands and groups that paint none of the damaged rows and
    /// columns: what drawing only those needs. Nil when the list's groups do not balance (the rasterizer
    /// reports that).
    public func keeping(rows damage: DamagedRows) -> DisplayList? {
        guard let reach = commandRows else { return nil }
        // A backdrop drawn paints what is below it again, within its filters' reach: that is kept too.
        var damage = damage
        for b in reach.backdrops.reversed() where damage.meets(b.area) { damage.insert(b.reach, height: Int.max / 4) }
        var kept: [Command] = []
        kept.reserveCapacity(commands.count)
        var i = 0
        while i < commands.count {
            let end = reach.end[i]
            if damage.meets(reach.areas[i]) { kept += commands[i..<end] }
            i = end
        }
        return DisplayList(background: background, commands: kept)
    }
}

/// The rows and columns of the frame a command can paint (columns not held to the frame).
struct PaintedArea: Sendable, Equatable {
    var rows: Range<Int>
    var columns: Range<Int>

    static let empty = PaintedArea(rows: 0..<0, columns: 0..<0)

    var isEmpty: Bool { rows.isEmpty || columns.isEmpty }
}

/// The area each command of a list can paint, in its context, and where each top-level item ends.
struct CommandRows: Sendable {
    /// Per command: the area it can paint (a group's begin, mask and end: the whole group's), widened by
    /// the filters and shadows of the groups around it; nil when unbounded (a non-finite coordinate).
    var areas: [PaintedArea?]
    /// Per command: the index after the item it starts (a group's end + 1; a fill's own index + 1).
    var end: [Int]
    /// The groups with background filters, in drawing order: the area their backdrop shows in, and
    /// that area widened by what the filters read (`Group.backdropFilters`), both in their context.
    var backdrops: [(area: PaintedArea, reach: PaintedArea)] = []

    /// Nil when the groups do not balance. A kept run that starts where no group is open takes its
    /// areas from its own (made once for every frame that holds it): they do not depend on anything
    /// before it, as nothing around it widens them.
    init?(_ commands: [DisplayList.Command], runs: [DisplayList.KeptRun] = []) {
        areas = Array(repeating: nil, count: commands.count)
        end = Array(repeating: 0, count: commands.count)
        // The groups open at each command, innermost last: where each began (and its mask), the area of its
        // content so far (not yet widened by its own shadow), and its shadow's reach, worked out once.
        var open: [(begin: Int, mask: Int?, area: PaintedArea?, shadow: GroupReach?)] = []
        var shadowsOpen = 0
        /// `a` widened by the filters and shadows of the groups open now, innermost first.
        func inContext(_ a: PaintedArea?) -> PaintedArea? {
            guard shadowsOpen > 0, var a else { return a }
            for group in open.reversed() { if let s = group.shadow { a = s.widen(a) } }
            return a
        }
        func addToGroup(_ a: PaintedArea?) {
            if !open.isEmpty { open[open.count - 1].area = Self.join(open[open.count - 1].area, a) }
        }
        let runs = runs.sorted { $0.range.lowerBound < $1.range.lowerBound }
        var nextRun = 0, i = 0
        while i < commands.count {
            defer { i += 1 }
            while nextRun < runs.count && runs[nextRun].range.lowerBound < i { nextRun += 1 }
            if open.isEmpty, nextRun < runs.count, runs[nextRun].range.lowerBound == i,
                runs[nextRun].range.upperBound <= commands.count,
                let own = runs[nextRun].rows.rows(of: commands[runs[nextRun].range])
            {
                let run = runs[nextRun].range
                for k in run.indices {
                    areas[k] = own.areas[k - run.lowerBound]
                    end[k] = own.end[k - run.lowerBound] + run.lowerBound
                }
                backdrops += own.backdrops
                i = run.upperBound - 1
                nextRun += 1
                continue
            }
            switch commands[i] {
            case .fill(let path, _, _, _):
                let own = Self.area(of: path, widenedBy: 0, transform: .identity)
                areas[i] = inContext(own)
                end[i] = i + 1
                addToGroup(own)
            case .stroke(let path, let style, let transform, _, _):
                // A miter reaches miterLimit half-widths from the line; caps and round joins less.
                let reachOut = style.lineWidth / 2 * max(style.miterLimit, 1.5) + 1
                let own = Self.area(of: path, widenedBy: reachOut, transform: transform)
                areas[i] = inContext(own)
                end[i] = i + 1
                addToGroup(own)
            case .beginGroup(let g):
                let shadow = GroupReach(g)
                if shadow != nil { shadowsOpen += 1 }
                // A backdrop's clip is part of what the group paints, content or none.
                var start: PaintedArea? = .empty
                if let clip = g.backdropClip, !g.backdropFilters.isEmpty {
                    let margin = DrawTree.prepare(g.backdropFilters).reduce(0) { $0 + $1.margin }
                    let own = Self.area(of: clip, widenedBy: 0, transform: .identity)
                    if let own, let area = inContext(own), let reach = inContext(Self.widen(own, by: margin)) {
                        if margin > 0 { backdrops.append((area, reach)) }
                        start = own
                    } else {
                        start = nil  // unbounded: every change damages the whole frame
                    }
                }
                open.append((i, nil, start, shadow))
            case .beginMask:
                guard !open.isEmpty, open[open.count - 1].mask == nil else { return nil }
                open[open.count - 1].mask = i
            case .endGroup:
                guard let group = open.popLast() else { return nil }
                if group.shadow != nil { shadowsOpen -= 1 }
                let whole = group.shadow.map { s in group.area.map(s.widen) } ?? group.area
                let seen = inContext(whole)
                for k in [group.begin, group.mask, i].compactMap({ $0 }) { areas[k] = seen }
                end[group.begin] = i + 1
                addToGroup(whole)
            }
        }
        guard open.isEmpty else { return nil }
    }

    /// How far a group's filters spread the area of its content, and its shadow moves and spreads that
    /// (as `DrawTree.bounds(of:filterMargin:shadow:)` widens a group's pixels): the filters' margins,
    /// the shadow's offset and blur margin, from `DrawTree.prepare`.
    struct GroupReach {
        let dx: Int
        let dy: Int
        let margin: Int
        let filterMargin: Int

        /// Nil for a group whose filters and shadow spread nothing.
        init?(_ group: Group) {
            let s = group.shadow.flatMap(DrawTree.prepare)
            filterMargin = DrawTree.prepare(group.filters).reduce(0) { $0 + $1.margin }
            guard s != nil || filterMargin > 0 else { return nil }
            dx = Int(max(min(s?.offset.x ?? 0, 1e9), -1e9).rounded(.down))
            dy = Int(max(min(s?.offset.y ?? 0, 1e9), -1e9).rounded(.down))
            margin = s?.margin ?? -1
        }

        /// The area content on `a` paints with the filters' spread and the shadow it casts.
        func widen(_ a: PaintedArea) -> PaintedArea {
            guard !a.isEmpty else { return a }
            let spread = CommandRows.widen(a, by: filterMargin)
            guard margin >= 0 else { return spread }
            return PaintedArea(rows: widen(spread.rows, by: dy), columns: widen(spread.columns, by: dx))
        }

        private func widen(_ r: Range<Int>, by d: Int) -> Range<Int> {
            min(r.lowerBound, r.lowerBound + d - margin)..<max(r.upperBound, r.upperBound + d + 1 + margin)
        }
    }

    /// `a` with `m` more rows and columns each side.
    static func widen(_ a: PaintedArea, by m: Int) -> PaintedArea {
        a.isEmpty
            ? a
            : PaintedArea(
                rows: a.rows.lowerBound - m..<a.rows.upperBound + m, columns: a.columns.lowerBound - m..<a.columns.upperBound + m)
    }

    /// Both areas' rows and columns (an empty one adds none); nil, unbounded, wins.
    static func join(_ a: PaintedArea?, _ b: PaintedArea?) -> PaintedArea? {
        guard let a, let b else { return nil }
        if a.isEmpty { return b }
        if b.isEmpty { return a }
        return PaintedArea(
            rows: min(a.rows.lowerBound, b.rows.lowerBound)..<max(a.rows.upperBound, b.rows.upperBound),
            columns: min(a.columns.lowerBound, b.columns.lowerBound)..<max(a.columns.upperBound, b.columns.upperBound))
    }

    /// The rows and columns the hull of the path's points (widened by `by` in its own space, then mapped
    /// by `transform`) meets, with a pixel of slack each side; nil when a coordinate is not finite.
    static func area(of path: Path, widenedBy by: Double, transform: Transform2D) -> PaintedArea? {
        guard let hull = path.controlPointBounds else { return .empty }
        let (minX, maxX, minY, maxY) = (hull.minX, hull.maxX, hull.minY, hull.maxY)
        guard minX.isFinite, maxX.isFinite, minY.isFinite, maxY.isFinite, by.isFinite else { return nil }
        // The four corners mapped one by one (an array of them was an allocation per command per frame).
        let p1 = transform.apply(Point(x: minX - by, y: minY - by))
        let p2 = transform.apply(Point(x: maxX + by, y: minY - by))
        let p3 = transform.apply(Point(x: minX - by, y: maxY + by))
        let p4 = transform.apply(Point(x: maxX + by, y: maxY + by))
        guard p1.x.isFinite, p2.x.isFinite, p3.x.isFinite, p4.x.isFinite, p1.y.isFinite, p2.y.isFinite, p3.y.isFinite,
            p4.y.isFinite
        else { return nil }
        func span(_ a: Double, _ b: Double, _ c: Double, _ d: Double) -> Range<Int> {
            let lo = min(min(a, b), min(c, d)), hi = max(max(a, b), max(c, d))
            return Int(max(lo, -1e9).rounded(.down)) - 1..<Int(min(hi, 1e9).rounded(.up)) + 1
        }
        return PaintedArea(rows: span(p1.y, p2.y, p3.y, p4.y), columns: span(p1.x, p2.x, p3.x, p4.x))
    }
}
