// The star button of examples/star-button.yaml, written with Reel's Swift API instead of a scene file:
// the same layers, the same animations, the same frames (a test renders both and compares them).
//
//     swift run star-button-swift out/star-button-swift.gif
//
// It reads like the original StarButton.swift: shape layers, CAKeyframeAnimation-style values and
// key times, addAnimation(_:forKey:) at the tap's time, and the delegate's "did stop" as the time the
// animation stops.
import Foundation
import Reel
import ReelAnimation
import ReelGeometry
import ReelScene

let favoriteColor = Color(hex: "#eecd34")!
let notFavoriteColor = Color(hex: "#9e9b9b")!
let starFavoriteColor = Color.white

func scale(_ s: Double) -> AnimatableValue { .transform(.scale(s, s)) }

/// A keyframe `transform` animation like favorite()'s: values at key times [0, 0.4, 0.6].
func bounce(_ values: [Double], duration: Double, begin: Double, _ curve: TimingFunction, fill: FillMode) -> Animation {
    var k = KeyframeAnimation(
        keyPath: "transform", values: values.map(scale), keyTimes: [0, 0.4, 0.6],
        timing: MediaTiming(beginTime: begin, duration: duration, fillMode: fill))
    k.timingFunction = curve
    return .keyframe(k)
}

func makeScene() throws -> Scene {
    var scene = Scene(width: 200, height: 200, scale: 2, fps: FrameRate(numerator: 30, denominator: 1)!, duration: 2.2)
    scene.background = .white

    var fill = Layer(name: "fill", type: .shape)
    fill.position = Point(x: 100, y: 100)
    fill.bounds = Rect(x: 0, y: 0, width: 119, height: 119)
    fill.shape.path = Path(ovalIn: fill.bounds)
    fill.shape.fillColor = favoriteColor
    fill.transform = .scale(0.2, 0.2)
    fill.opacity = 0

    var ring = Layer(name: "ring", type: .shape)
    ring.position = Point(x: 100, y: 100)
    ring.bounds = fill.bounds
    ring.shape.path = Path(ovalIn: ring.bounds)
    ring.shape.fillColor = nil
    ring.shape.strokeColor = notFavoriteColor
    ring.shape.stroke.lineWidth = 1
    ring.opacity = 0.5

    var star = Layer(name: "star", type: .shape)
    star.bounds = Rect(x: 54.6, y: 55.71, width: 72.04, height: 68.71)
    star.shape.fillColor = notFavoriteColor
    star.opacity = 0.5
    star.shape.path = try Path(
        svgPathData: """
            M 112.79 119 C 113.41 122.8 111.14 124.42 107.75 122.6 L 96.53 116.58 \
            C 93.14 114.76 87.56 114.71 84.14 116.47 L 72.82 122.3 C 69.4 124.06 67.15 122.41 67.84 118.62 \
            L 70.1 106.09 C 70.78 102.3 69.1 96.98 66.37 94.27 L 57.33 85.31 C 54.6 82.6 55.48 79.95 59.29 79.43 \
            L 71.91 77.71 C 75.72 77.19 80.26 73.95 81.99 70.51 L 87.72 59.14 C 89.46 55.71 92.25 55.73 93.92 59.2 \
            L 99.46 70.66 C 101.13 74.13 105.62 77.44 109.42 78.03 L 122 79.96 C 125.81 80.55 126.64 83.21 123.87 85.87 \
            L 114.67 94.68 C 111.89 97.34 110.13 102.63 110.75 106.43 L 112.79 119 Z
            """)
    var starFrame = Layer(name: "starFrame")
    starFrame.position = Point(x: 100, y: 100)
    starFrame.transform = .scale(2.0 / 3, 2.0 / 3)
    starFrame.addSublayer(star)
    scene.layers = [fill, ring, starFrame]

    // favorite(), tapped at 0.2 s.
    let tap = 0.2
    try scene.addAnimation(
        bounce([1, 1.5, 0.01], duration: 0.4, begin: 0.05, .easeIn, fill: .backwards), forKey: "favorite", toLayer: "star",
        at: tap)
    try scene.setValue(scale(0.01), forKeyPath: .transform, onLayer: "star", at: tap)
    try scene.addAnimation(
        bounce([1, 1.5, 0.01], duration: 0.4, begin: 0.01, .easeIn, fill: .backwards), forKey: nil, toLayer: "ring", at: tap)
    try scene.setValue(scale(0.01), forKeyPath: .transform, onLayer: "ring", at: tap)
    try scene.addAnimation(
        .basic(BasicAnimation("opacity", to: 1, duration: 1, .easeIn, fillMode: .backwards)), forKey: "showFill",
        toLayer: "fill", at: tap)
    try scene.addAnimation(
        bounce([0.2, 1.5, 1], duration: 0.4, begin: 0.22, .easeIn, fill: .backwards), forKey: nil, toLayer: "fill", at: tap)
    try scene.setValue(scale(1), forKeyPath: .transform, onLayer: "fill", at: tap)

    // endFavorite(), when "favorite" stops (its delegate's animationDidStop).
    let end = scene.stopTime(ofAnimation: "favorite")!
    try scene.setValue(.color(starFavoriteColor), forKeyPath: .fillColor, onLayer: "star", at: end)
    try scene.setValue(1, forKeyPath: .opacity, onLayer: "star", at: end)
    try scene.setValue(scale(1), forKeyPath: .transform, onLayer: "star", at: end)
    try scene.addAnimation(
        bounce([0.01, 2, 1], duration: 0.2, begin: 0, .linear, fill: .removed), forKey: nil, toLayer: "star", at: end)
    try scene.setValue(1, forKeyPath: .opacity, onLayer: "fill", at: end)
    try scene.setValue(scale(1), forKeyPath: .transform, onLayer: "ring", at: end)
    try scene.setValue(0, forKeyPath: .opacity, onLayer: "ring", at: end)

    // notFavorite(), tapped at 1.6 s (from values written out, as in the scene file).
    let untap = 1.6
    let group = AnimationGroup(animations: [
        .basic(BasicAnimation("fillColor", from: .color(starFavoriteColor), to: .color(notFavoriteColor), duration: 0.3)),
        .basic(BasicAnimation("opacity", from: 1, to: 0.5, duration: 0.3)),
    ])
    try scene.addAnimation(.group(group), forKey: nil, toLayer: "star", at: untap)
    try scene.setValue(.color(notFavoriteColor), forKeyPath: .fillColor, onLayer: "star", at: untap)
    try scene.setValue(0.5, forKeyPath: .opacity, onLayer: "star", at: untap)
    try scene.addAnimation(
        .basic(BasicAnimation("opacity", from: 1, to: 0, duration: 0.3)), forKey: "hideFill", toLayer: "fill", at: untap)
    try scene.setValue(0, forKeyPath: .opacity, onLayer: "fill", at: untap)
    try scene.addAnimation(
        .basic(BasicAnimation("opacity", from: 0, to: 0.5, duration: 0.3)), forKey: nil, toLayer: "ring", at: untap)
    try scene.setValue(0.5, forKeyPath: .opacity, onLayer: "ring", at: untap)
    // prepareForFavorite(), when the fill's fade stops.
    try scene.setValue(scale(0.2), forKeyPath: .transform, onLayer: "fill", at: scene.stopTime(ofAnimation: "hideFill")!)
    return scene
}

let arguments = CommandLine.arguments.dropFirst()
guard let output = arguments.first, arguments.count == 1 else {
    FileHandle.standardError.write(Data("usage: star-button-swift OUTPUT (.mp4 or .gif)\n".utf8))
    exit(2)
}
do {
    let summary = try Reel.render(Clip(scene: try makeScene()), to: output)
    print("wrote \(summary.output): \(summary.frames) frames, \(summary.width)×\(summary.height)")
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}
