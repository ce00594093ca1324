// What every fuzz target shares: the fuzzer's bytes as text, and a decoded scene exercised (sampled at a few times).
import ReelGeometry
import ReelScene

/// The fuzzer's bytes as text. Invalid UTF-8 is repaired rather than refused, so that the decoders
/// still see everything around it (the file loaders refuse it before decoding).
public func text(_ data: UnsafePointer<UInt8>, _ size: Int) -> String {
    String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
}

/// What a render asks of a decoded scene before any drawing: validation and a few snapshots. Cheap
/// whatever the scene says (no canvas is allocated), so that a slow or crashing input is a bug of
/// decoding or sampling, not a large render.
public func exercise(_ scene: Scene) {
    guard scene.validationProblem() == nil else { return }
    var times = [0, 0.5, 1]
    if scene.duration.isFinite { times += [scene.duration / 3, scene.duration] }
    for t in times {
        var count = 0
        for entry in scene.sample(at: t).layers.flatMap({ $0.flattened() }) {
            count += entry.layer.sublayers.count
        }
        blackHole(count)
    }
}

/// What the renderer does with a path before rasterizing: flatten it, measure it, trim it. Outlining a
/// stroke is left to paths of modest size, to keep each input fast.
public func exercise(_ path: Path) {
    let lines = path.polylines()
    let length = PathMeasure.length(lines)
    let trimmed = PathMeasure.trim(lines, start: 0.25, end: 0.75)
    blackHole(trimmed.count + (length.isNaN ? 1 : 0))
    if lines.reduce(0, { $0 + $1.points.count }) < 20_000 {
        blackHole(Stroker.outline(path, style: StrokeStyle()).elements.count)
    }
}

/// Keeps a result alive, so the optimizer cannot drop the work that produced it.
@inline(never)
public func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
