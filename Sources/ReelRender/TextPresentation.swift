/// Text layers' presentation, the step before they are drawn: the text typeset in the layer's bounds
/// and each animated line, word or cluster's values at the layer's time.
import ReelGeometry
import ReelScene
import ReelText

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
        guard let (set, colors) = self.text.typeset(text, in: layer.bounds), !set.glyphs.isEmpty else { return nil }
        let units = TextUnit.allCases.filter { u in text.unitAnimations.contains { $0.unit == u } }
        var presented = PresentedText(
            set: set, colors: colors, runs: self.text.glyphRuns.runs(for: set, units: units), units: units, values: [:])
        for u in units {
            presented.values[u] = text.presentations(of: u, count: presented.boxes(u).count, at: layer.time)
        }
        return presented
    }
}
