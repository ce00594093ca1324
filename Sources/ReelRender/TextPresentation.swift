/// Text layers' presentation, the step before they are drawn: the text typeset in the layer's bounds
/// (and set along its path, if it has one) and each animated line, word or cluster's values at the
/// layer's time.
import ReelGeometry
import ReelScene
import ReelText
import Synchronization

/// A text layer as presented at one time: its layout, its runs' colours, its glyphs gathered by run and
/// unit, and for each unit kind its animations move, every unit's values. Per-unit animation is
/// evaluated here, not while drawing: how many units there are comes from the layout, and the layout
/// from the fonts the renderer holds, so this is the renderer's first step for a text layer rather than
/// part of `Scene.sample` (ReelScene opens no fonts).
struct PresentedText {
    var set: TypesetText
    var colors: [Color]
    var runs: GlyphRuns
    /// The unit kinds whose animations apply, outermost first.
    var units: [TextUnit]
    var values: [TextUnit: [UnitPresentation]]

    func boxes(_ u: TextUnit) -> [Rect] {
        switch u {
        case .line: return set.lines
        case .word: return set.words
        case .cluster: return set.clusters
        }
    }
}

extension SceneRenderer {
    /// `layer`'s text presented at its own time; nil when there is nothing to draw (no glyphs, or a font
    /// missing, which the loader reports before any frame).
    func presentText(_ layer: PresentationLayer) -> PresentedText? {
        let text = layer.text
        guard let (typeset, colors) = self.text.typeset(text, in: layer.bounds), !typeset.glyphs.isEmpty else { return nil }
        var set = typeset
        if !text.characterOffsets.isEmpty {
            set = self.text.movedLayouts.layout(set, offsets: text.characterOffsets)
        }
        if !layer.properties.shape.path.isEmpty {
            // Along the layer's path, given in the layer's points: the text box's are offset by the
            // bounds' origin.
            let origin = layer.bounds.origin
            set = self.text.movedLayouts.layout(
                set, along: layer.properties.shape.path.applying(.translation(x: -origin.x, y: -origin.y)),
                offset: text.pathOffset)
            guard !set.glyphs.isEmpty || !set.decorations.isEmpty else { return nil }
        }
        let units = TextUnit.allCases.filter { u in text.unitAnimations.contains { $0.unit == u } }
        var presented = PresentedText(
            set: set, colors: colors, runs: self.text.glyphRuns.runs(for: set, units: units), units: units, values: [:])
        for u in units {
            presented.values[u] = text.presentations(of: u, count: presented.boxes(u).count, at: layer.time)
        }
        return presented
    }
}

/// Layouts moved after layout: set along a text layer's path (`TypesetText.laidAlong`), or with their
/// characters offset (`TypesetText.offset(by:)`); kept so that a still text keeps one layout id, and so
/// its glyph runs, from frame to frame.
final class MovedLayoutCache: Sendable {
    private struct Key: Hashable {
        var layout: UInt64
        var path: Path
        var offset: Double
        var characters: [CharacterOffset] = []
    }
    /// Most kept; it starts over when full (an animated offset makes one a frame).
    static let limit = 1024
    /// Most measured paths kept (each up to `ArcLength.maximumSamples` lengths, 2 MiB).
    static let measureLimit = 64
    private let entries = Mutex<[Key: TypesetText]>([:])
    /// Each path measured once (measuring a long curve costs more than placing its glyphs).
    private let measures = Mutex<[Path: ArcLength]>([:])

    func layout(_ set: TypesetText, offsets: [CharacterOffset]) -> TypesetText {
        let key = Key(layout: set.id, path: Path(), offset: 0, characters: offsets)
        if let hit = entries.withLock({ $0[key] }) { return hit }
        let moved = set.offset(by: offsets)
        entries.withLock {
            if $0.count >= Self.limit { $0.removeAll(keepingCapacity: true) }
            $0[key] = moved
        }
        return moved
    }

    func layout(_ set: TypesetText, along path: Path, offset: Double) -> TypesetText {
        let key = Key(layout: set.id, path: path, offset: offset)
        if let hit = entries.withLock({ $0[key] }) { return hit }
        let measure =
            measures.withLock({ $0[path] })
            ?? {
                let m = ArcLength(path)
                measures.withLock {
                    if $0.count >= Self.measureLimit { $0.removeAll(keepingCapacity: true) }
                    $0[path] = m
                }
                return m
            }()
        let laid = set.laidAlong(measure, offset: offset)
        entries.withLock {
            if $0.count >= Self.limit { $0.removeAll(keepingCapacity: true) }
            $0[key] = laid
        }
        return laid
    }
}
