/// The display list Render hands to Raster: fills, strokes and nested groups (opacity, clip, mask,
/// shadow, filters) in device pixels, back to front.
import ReelGeometry
import Synchronization

/// What to draw, in device pixels, back to front. Built by ReelRender from a scene snapshot.
///
/// Groups nest: `beginGroup` … content … [`beginMask` … mask content …] `endGroup`. A group's content
/// is drawn offscreen and composited onto what is below as one picture, after its shadow, clip, mask
/// and opacity are applied.
public struct DisplayList: Sendable, Equatable {
    /// Indirect: each command is one reference, so a frame's list copies a kept run of 2,000 still
    /// shapes as 2,000 retains instead of copying each payload field by field (88 M instructions over
    /// the 120 frames of the shapes-and-dot GIF; web-bacon's frames 1 % fewer too).
    public indirect enum Command: Sendable, Equatable {
        /// Fill `path` with `paint`; coverage is multiplied by `opacity`.
        case fill(path: Path, paint: Paint, opacity: Double, rule: FillRule)
        /// Stroke `path` (in its own space, mapped to device space by `transform`, so a non-uniform
        /// scale shapes the pen) and fill the outline with `paint`. Outlines are made in the
        /// rasterizer's parallel preparation.
        case stroke(path: Path, style: StrokeStyle, transform: Transform2D, paint: Paint, opacity: Double)
        case beginGroup(Group)
        /// Ends the content of a group that has `hasMask`; what follows, to `endGroup`, draws the mask,
        /// whose alpha (or luminance, with `maskByLuminance`) multiplies the group.
        case beginMask
        case endGroup

        /// A solid stroke in device space.
        public static func stroke(path: Path, style: StrokeStyle, color: Color, transform: Transform2D = .identity) -> Command {
            .stroke(path: path, style: style, transform: transform, paint: .solid(color), opacity: 1)
        }

        /// A solid fill.
        public static func fill(path: Path, color: Color, opacity: Double = 1, rule: FillRule = .nonZero) -> Command {
            .fill(path: path, paint: .solid(color), opacity: opacity, rule: rule)
        }
    }

    public var background: Color
    public var commands: [Command] {
        didSet {
            rowsMemo = RowsMemo()
            keptRuns = []
        }
    }
    /// Stretches of `commands` that are a kept list whole (a renderer's still layers): the same token at
    /// the same place in two lists is the same commands, which `damage(since:)` passes over without
    /// comparing them one by one (2,000 still shapes beside a moving dot, twice a frame). Set after the
    /// commands: changing them forgets it.
    public var keptRuns: [KeptRun] = []
    /// The rows each command can paint, worked out once for the list and its copies: a frame's list is
    /// compared with the frame before's and with what its buffer shows, then cut, and the frame after
    /// compares with it again (four walks over every command of a frame, 2,000 still shapes included).
    private var rowsMemo = RowsMemo()

    public init(background: Color, commands: [Command] = []) {
        self.background = background
        self.commands = commands
    }

    public static func == (a: DisplayList, b: DisplayList) -> Bool {
        a.background == b.background && a.commands == b.commands
    }

    /// Nil when the groups do not balance.
    var commandRows: CommandRows? { rowsMemo.rows { CommandRows(commands, runs: keptRuns) } }

    /// A stretch of a list's commands that is a kept list whole, and that list's token (unique in the
    /// process: a token names one list of commands and never another).
    public struct KeptRun: Sendable, Equatable, Hashable {
        public var range: Range<Int>
        public var token: Int
        /// The kept list's own rows, made once and shared by every list that holds it.
        public let rows: KeptRunRows

        public init(range: Range<Int>, token: Int, rows: KeptRunRows = KeptRunRows()) {
            self.range = range
            self.token = token
            self.rows = rows
        }

        // The rows are what the token's commands give: a run is its place and its token.
        public static func == (a: KeptRun, b: KeptRun) -> Bool { a.range == b.range && a.token == b.token }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(range.lowerBound)
            hasher.combine(range.upperBound)
            hasher.combine(token)
        }
    }
}

/// `DisplayList.commandRows` once made. Shared by a list's copies, which workers read at once; a list
/// changed gets a new one.
final class RowsMemo: Sendable {
    private let made = Mutex<CommandRows??>(nil)

    func rows(_ make: () -> CommandRows?) -> CommandRows? {
        if let rows = made.withLock({ $0 }) { return rows }
        // Made outside the lock: two workers may both make it, and either's is the same.
        let rows = make()
        made.withLock { $0 = rows }
        return rows
    }
}

/// A kept list's own command rows (`DisplayList.KeptRun.rows`), made the first time a list holding it
/// needs them: the same for every frame that holds the run.
public final class KeptRunRows: Sendable {
    private let memo = RowsMemo()

    public init() {}

    func rows(of commands: ArraySlice<DisplayList.Command>) -> CommandRows? { memo.rows { CommandRows(Array(commands)) } }
}

/// How a group is composited onto what is below it.
public struct Group: Sendable, Equatable {
    /// Group opacity, applied to the flattened group (overlaps inside it do not show through).
    public var opacity: Double
    /// Clip path in device space (a layer's `masksToBounds` shape).
    public var clip: Path?
    /// Whether `beginMask` follows the content.
    public var hasMask: Bool
    /// The mask multiplies by its luminance (premultiplied: luminance × alpha, SVG's default `mask-type`)
    /// rather than by its alpha (Core Animation's `mask`).
    public var maskByLuminance = false
    /// The group is multiplied by one minus the mask's alpha (or luminance): what the mask leaves.
    public var maskInverted = false
    public var shadow: Shadow?
    /// Multiplies the group's colours and alpha (a replicator's `instanceColor`).
    public var tint: Color?
    /// How the group's picture combines with what is below it (a layer's `compositingFilter`).
    public var blendMode: BlendMode = .normal
    /// Applied in order to the flattened content, before the shadow, clip, mask and opacity (a layer's
    /// `filters`).
    public var filters: [PictureFilter] = []
    /// Applied in order to what is drawn below the group (a layer's `backgroundFilters`), shown within
    /// `backdropClip` under the group's content and faded by its opacity: frosted glass. What is below is
    /// what the list draws before the group at its level (and the background at the top level).
    public var backdropFilters: [PictureFilter] = []
    /// Where the filtered backdrop shows, in device space (the layer's rounded bounds).
    public var backdropClip: Path?

    public init(opacity: Double = 1, clip: Path? = nil, hasMask: Bool = false, shadow: Shadow? = nil, tint: Color? = nil) {
        self.opacity = opacity
        self.clip = clip
        self.hasMask = hasMask
        self.shadow = shadow
        self.tint = tint
    }
}

/// A drop shadow: the group's alpha, blurred by a Gaussian of standard deviation `sigma` pixels,
/// moved by `offset` pixels and tinted with `color` (its alpha includes the shadow opacity).
public struct Shadow: Sendable, Equatable {
    public var color: Color
    public var offset: Point
    public var sigma: Double

    public init(color: Color, offset: Point, sigma: Double) {
        self.color = color
        self.offset = offset
        self.sigma = sigma
    }
}

/// Which points a path's fill covers (`CAShapeLayerFillRule`).
public enum FillRule: String, Sendable, CaseIterable {
    /// Covered where the path winds round the point a non-zero number of times.
    case nonZero
    /// Covered where a ray from the point crosses the path an odd number of times.
    case evenOdd
}
