/// Damage: the rows where one display list paints differently from another, and a list cut down to them.
import ReelGeometry

/// Frame rows as a sorted set of disjoint ranges: what a frame must draw again.
public struct DamagedRows: Sendable, Equatable {
    /// Sorted, disjoint, non-empty ranges within the frame.
    public private(set) var ranges: [Range<Int>]

    public static let none = DamagedRows(ranges: [])

    public static func all(height: Int) -> DamagedRows { DamagedRows(ranges: height > 0 ? [0..<height] : []) }

    public var isEmpty: Bool { ranges.isEmpty }
    public var rowCount: Int { ranges.reduce(0) { $0 + $1.count } }

    public func covers(height: Int) -> Bool { ranges == [0..<height] || (height <= 0 && ranges.isEmpty) }

    /// Whether any damaged row is in `rows`.
    public func meets(_ rows: Range<Int>) -> Bool {
        // Few ranges (one a region that moved): a walk beats a search.
        ranges.contains { $0.overlaps(rows) }
    }

    /// `rows` made part of the set, held to `0 ..< height`.
    mutating func insert(_ rows: Range<Int>, height: Int) {
        let lo = max(0, rows.lowerBound), hi = min(height, rows.upperBound)
        guard lo < hi else { return }
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
    /// The rows of a `height`-row frame where this list paints differently from `before`: drawing just
    /// those rows over a frame that holds `before`'s picture gives this list's picture, byte for byte
    /// (a row's pixels do not depend on which rows are drawn with it: see `Rasterizer`).
    ///
    /// Lists of the same length are compared command by command; otherwise the commands between their
    /// common start and common end are taken as changed. A changed command damages the rows it can paint
    /// in both lists, in its context: widened by the shadows of the groups it is in, and for a group's
    /// begin, end or mask the rows of the whole group (its opacity, clip, tint or blend apply to all of
    /// its content). Conservative, never short: a command's rows come from its control points.
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
            guard let rows = commandRows else { return .all(height: height) }
            for i in changedNew {
                guard let r = rows.rows[i] else { return .all(height: height) }
                damage.insert(r, height: height)
            }
        }
        if !changedOld.isEmpty {
            guard let rows = before.commandRows else { return .all(height: height) }
            for i in changedOld {
                guard let r = rows.rows[i] else { return .all(height: height) }
                damage.insert(r, height: height)
            }
        }
        return damage
    }

    /// The list without the top-level commands and groups that paint none of `rows`: what drawing only
    /// those rows needs. Nil when the list's groups do not balance (the rasterizer reports that).
    public func keeping(rows damage: DamagedRows) -> DisplayList? {
        guard let reach = commandRows else { return nil }
        var kept: [Command] = []
        kept.reserveCapacity(commands.count)
        var i = 0
        while i < commands.count {
            let end = reach.end[i]
            if reach.rows[i].map(damage.meets) ?? true { kept += commands[i..<end] }
            i = end
        }
        return DisplayList(background: background, commands: kept)
    }
}

/// The rows each command of a list can paint, in its context, and where each top-level item ends.
struct CommandRows: Sendable {
    /// Per command: the rows it can paint (a group's begin, mask and end: the whole group's), widened by
    /// the shadows of the groups around it; nil when unbounded (a non-finite coordinate).
    var rows: [Range<Int>?]
    /// Per command: the index after the item it starts (a group's end + 1; a fill's own index + 1).
    var end: [Int]

    /// Nil when the groups do not balance. A kept run that starts where no group is open takes its
    /// rows from its own (made once for every frame that holds it): they do not depend on anything
    /// before it, as nothing around it widens them.
    init?(_ commands: [DisplayList.Command], runs: [DisplayList.KeptRun] = []) {
        rows = Array(repeating: nil, count: commands.count)
        end = Array(repeating: 0, count: commands.count)
        // The groups open at each command, innermost last: where each began (and its mask), the rows of its
        // content so far (not yet widened by its own shadow), and its shadow's reach, worked out once.
        var open: [(begin: Int, mask: Int?, rows: Range<Int>?, shadow: ShadowReach?)] = []
        var shadowsOpen = 0
        /// `r` widened by the shadows of the groups open now, innermost first.
        func inContext(_ r: Range<Int>?) -> Range<Int>? {
            guard shadowsOpen > 0, var r else { return r }
            for group in open.reversed() { if let s = group.shadow { r = s.widen(r) } }
            return r
        }
        func addToGroup(_ r: Range<Int>?) {
            if !open.isEmpty { open[open.count - 1].rows = Self.join(open[open.count - 1].rows, r) }
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
                    rows[k] = own.rows[k - run.lowerBound]
                    end[k] = own.end[k - run.lowerBound] + run.lowerBound
                }
                i = run.upperBound - 1
                nextRun += 1
                continue
            }
            switch commands[i] {
            case .fill(let path, _, _, _):
                let own = Self.rows(of: path, widenedBy: 0, transform: .identity)
                rows[i] = inContext(own)
                end[i] = i + 1
                addToGroup(own)
            case .stroke(let path, let style, let transform, _, _):
                // A miter reaches miterLimit half-widths from the line; caps and round joins less.
                let reachOut = style.lineWidth / 2 * max(style.miterLimit, 1.5) + 1
                let own = Self.rows(of: path, widenedBy: reachOut, transform: transform)
                rows[i] = inContext(own)
                end[i] = i + 1
                addToGroup(own)
            case .beginGroup(let g):
                let shadow = g.shadow.flatMap(ShadowReach.init)
                if shadow != nil { shadowsOpen += 1 }
                open.append((i, nil, .empty, shadow))
            case .beginMask:
                guard !open.isEmpty, open[open.count - 1].mask == nil else { return nil }
                open[open.count - 1].mask = i
            case .endGroup:
                guard let group = open.popLast() else { return nil }
                if group.shadow != nil { shadowsOpen -= 1 }
                let whole = group.shadow.map { s in group.rows.map(s.widen) } ?? group.rows
                let seen = inContext(whole)
                for k in [group.begin, group.mask, i].compactMap({ $0 }) { rows[k] = seen }
                end[group.begin] = i + 1
                addToGroup(whole)
            }
        }
        guard open.isEmpty else { return nil }
    }

    /// How far a group's shadow moves and spreads the rows of its content (as `DrawTree.bounds(of:shadow:)`
    /// widens a group's pixels): its offset down and the blur's margin, from `DrawTree.prepare`.
    struct ShadowReach {
        let dy: Int
        let margin: Int

        /// Nil for a shadow that draws nothing.
        init?(_ shadow: Shadow) {
            guard let s = DrawTree.prepare(shadow) else { return nil }
            dy = Int(max(min(s.offset.y, 1e9), -1e9).rounded(.down))
            margin = s.margin
        }

        /// The rows content on `r` paints with the shadow it casts.
        func widen(_ r: Range<Int>) -> Range<Int> {
            guard !r.isEmpty else { return r }
            return min(r.lowerBound, r.lowerBound + dy - margin)..<max(r.upperBound, r.upperBound + dy + 1 + margin)
        }
    }

    /// Both ranges' rows (an empty one adds none); nil, unbounded, wins.
    static func join(_ a: Range<Int>?, _ b: Range<Int>?) -> Range<Int>? {
        guard let a, let b else { return nil }
        if a.isEmpty { return b }
        if b.isEmpty { return a }
        return min(a.lowerBound, b.lowerBound)..<max(a.upperBound, b.upperBound)
    }

    /// The rows the hull of the path's points (widened by `by` in its own space, then mapped by
    /// `transform`) meets, with a row of slack each side; nil when a coordinate is not finite.
    static func rows(of path: Path, widenedBy by: Double, transform: Transform2D) -> Range<Int>? {
        guard let hull = path.controlPointBounds else { return .empty }
        let (minX, maxX, minY, maxY) = (hull.minX, hull.maxX, hull.minY, hull.maxY)
        guard minX.isFinite, maxX.isFinite, minY.isFinite, maxY.isFinite, by.isFinite else { return nil }
        // The four corners mapped one by one (an array of them was an allocation per command per frame).
        let y1 = transform.apply(Point(x: minX - by, y: minY - by)).y
        let y2 = transform.apply(Point(x: maxX + by, y: minY - by)).y
        let y3 = transform.apply(Point(x: minX - by, y: maxY + by)).y
        let y4 = transform.apply(Point(x: maxX + by, y: maxY + by)).y
        guard y1.isFinite, y2.isFinite, y3.isFinite, y4.isFinite else { return nil }
        let lo = min(min(y1, y2), min(y3, y4)), hi = max(max(y1, y2), max(y3, y4))
        return Int(max(lo, -1e9).rounded(.down)) - 1..<Int(min(hi, 1e9).rounded(.up)) + 1
    }
}

extension Range where Bound == Int {
    fileprivate static var empty: Range<Int> { 0..<0 }
}
