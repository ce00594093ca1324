// Scene files decoded: Core Animation's defaults, layers, animations, springs, groups, timelines, YAML; located errors.
import ReelAnimation
import ReelDocument
import ReelGeometry
import ReelScene
import ReelTestSupport
import Testing

func decode(_ text: String) throws(SceneError) -> Scene {
    try SceneDecoder.decode(Array(text.utf8), file: "test.json")
}

func decodeError(_ text: String) -> SceneError? {
    do {
        _ = try decode(text)
        return nil
    } catch {
        return error
    }
}

@Suite struct SceneDecoderTests {
    let minimal = ##"{"width": 100, "height": 50, "fps": 30, "duration": 1}"##

    @Test func minimalSceneHasCoreAnimationDefaults() throws {
        let s = try decode(minimal)
        #expect(s.pixelWidth == 100 && s.pixelHeight == 50 && s.scale == 1)
        #expect(s.background == .white)
        #expect(s.frameCount == 30)
    }

    @Test func fullLayer() throws {
        let s = try decode(
            """
            {"width": 100, "height": 50, "scale": 2, "fps": "30000/1001", "duration": 2, "background": "#101418",
             "layers": [{"name": "card", "type": "layer", "position": {"x": 50, "y": 25}, "bounds": [10, 20],
                         "opacity": 0.5, "backgroundColor": [1, 0, 0, 0.5], "cornerRadius": 4,
                         "animations": [{"keyPath": "position.x", "fromValue": 0, "toValue": 100, "beginTime": 0.5, "duration": 1}]}]}
            """)
        #expect(s.pixelWidth == 200 && s.fps == FrameRate(numerator: 30000, denominator: 1001))
        #expect(s.frameCount == 60)  // 2 s · 29.97 = 59.94 → 60 frames start before 2 s
        let layer = s.layers[0]
        #expect(layer.bounds == Rect(x: 0, y: 0, width: 10, height: 20))
        #expect(layer.anchorPoint == Point(x: 0.5, y: 0.5))
        #expect(layer.backgroundColor == Color(red: 1, green: 0, blue: 0, alpha: 0.5))
        #expect(s.background == Color(red: 16.0 / 255, green: 20.0 / 255, blue: 24.0 / 255))
        // position.x at t = 1: p = (1 − 0.5)/1 = 0.5 → 50; before 0.5 s and after 1.5 s the model value 50.
        #expect(s.sample(at: 1).layers[0].position.x == 50)
        #expect(s.sample(at: 0.75).layers[0].position.x == 25)
        #expect(s.sample(at: 0.25).layers[0].position.x == 50)
    }

    /// `maskMode` chooses what of the mask masks; an svg layer read without an importer is an error at
    /// its `file` that says how to load it.
    @Test func maskModeAndSVGLayersWithoutAnImporter() throws {
        let s = try decode(
            ##"{"width": 10, "height": 10, "fps": 1, "duration": 1, "layers": [{"name": "a", "maskMode": "luminance"}]}"##)
        #expect(s.layers[0].maskMode == .luminance)
        let bad = decodeError(
            ##"{"width": 10, "height": 10, "fps": 1, "duration": 1, "layers": [{"name": "a", "maskMode": "luma"}]}"##)
        #expect(bad?.path == "layers[0].maskMode")
        let svg = decodeError(
            ##"{"width": 10, "height": 10, "fps": 1, "duration": 1, "layers": [{"type": "svg", "file": "x.svg"}]}"##)
        #expect(svg?.path == "layers[0].file" && svg?.fix?.contains("Reel.load") == true)
    }

    @Test func malformedJSONNamesLineAndColumn() {
        let e = decodeError("{\n  \"width\": 100,\n  \"height\": ,\n}")
        #expect(e?.location == SourceLocation(line: 3, column: 13))
        #expect(
            e?.description.hasPrefix("test.json:3:13: invalid JSON: unexpected character ','") == true, "\(String(describing: e))"
        )
    }

    @Test func wrongTypeNamesTheJSONPath() {
        let e = decodeError(
            """
            {"width": 100, "height": 50, "fps": 30, "duration": 1,
             "layers": [{"name": "a"}, {"name": "b", "opacity": "high"}]}
            """)
        #expect(e?.path == "layers[1].opacity")
        #expect(e?.location == SourceLocation(line: 2, column: 53))
        #expect(e?.message == "expected a number, found a string")
    }

    @Test func unknownKeySuggestsTheNearestOne() {
        let e = decodeError(##"{"width": 100, "height": 50, "fps": 30, "duration": 1, "layers": [{"opactiy": 1}]}"##)
        #expect(e?.path == "layers[0].opactiy")
        #expect(e?.fix?.hasPrefix("did you mean \"opacity\"?") == true)
    }

    @Test func unknownLayerTypeListsKnownTypes() {
        let e = decodeError(##"{"width": 100, "height": 50, "fps": 30, "duration": 1, "layers": [{"type": "emitter"}]}"##)
        #expect(e?.path == "layers[0].type")
        #expect(e?.message == "unknown layer type \"emitter\"")
        #expect(e?.fix?.contains("layer") == true)
    }

    @Test(arguments: [
        (#""width": 0, "height": 50, "fps": 30, "duration": 1"#, "width"),
        (#""width": -4, "height": 50, "fps": 30, "duration": 1"#, "width"),
        (#""width": 100000, "height": 50, "fps": 30, "duration": 1"#, "width"),
        (#""width": 9000, "height": 9000, "fps": 30, "duration": 1"#, "width"),
        (#""width": 100, "height": 0, "fps": 30, "duration": 1"#, "height"),
        (#""width": 100, "height": 50, "fps": 0, "duration": 1"#, "fps"),
        (#""width": 100, "height": 50, "fps": -30, "duration": 1"#, "fps"),
        (#""width": 100, "height": 50, "fps": "0/1", "duration": 1"#, "fps"),
        (#""width": 100, "height": 50, "fps": 30, "duration": 0"#, "duration"),
        (#""width": 100, "height": 50, "fps": 30, "duration": -1"#, "duration"),
        (#""width": 100, "height": 50, "fps": 30"#, "duration"),
    ])
    func invalidCanvasOrTimingIsRefused(_ body: String, _ key: String) {
        let e = decodeError("{\(body)}")
        #expect(e?.path == key, "\(String(describing: e))")
        #expect(e?.location != nil)
    }

    @Test func animationValueTypeFollowsTheKeyPath() {
        let e = decodeError(
            """
            {"width": 100, "height": 50, "fps": 30, "duration": 1,
             "layers": [{"animations": [{"keyPath": "position", "toValue": 3}]}]}
            """)
        #expect(e?.path == "layers[0].animations[0].toValue")
        #expect(e?.message == "expected a point, found a number")
        let k = decodeError(
            """
            {"width": 100, "height": 50, "fps": 30, "duration": 1,
             "layers": [{"animations": [{"keyPath": "positon.x", "toValue": 3}]}]}
            """)
        #expect(k?.fix?.hasPrefix("did you mean \"position.x\"?") == true)
    }

    @Test func hostileInputGivesErrorsNotCrashes() {
        #expect(decodeError("")?.message.contains("empty") == true)
        #expect(decodeError(String(repeating: "[", count: 100_000)) != nil)  // nesting limit, no stack overflow
        #expect(decodeError("{\"width\": 1e999}")?.message.contains("out of range") == true)
        #expect(decodeError("{\"a\": 1, \"a\": 2}")?.message == "invalid JSON: duplicate key \"a\"")
        #expect(decodeError("[1, 2]")?.message == "expected a scene (a JSON object), found an array")
    }
}

@Suite struct FrameRateTests {
    @Test func parsing() {
        #expect(FrameRate(parsing: "30") == FrameRate(numerator: 30, denominator: 1))
        #expect(FrameRate(parsing: "29.97") == FrameRate(numerator: 30000, denominator: 1001))
        #expect(FrameRate(parsing: "59.94") == FrameRate(numerator: 60000, denominator: 1001))
        #expect(FrameRate(parsing: "24000/1001") == FrameRate(numerator: 24000, denominator: 1001))
        #expect(FrameRate(parsing: "12.5") == FrameRate(numerator: 25, denominator: 2))
        #expect(FrameRate(parsing: "0") == nil && FrameRate(parsing: "-30") == nil && FrameRate(parsing: "x") == nil)
        #expect(FrameRate(parsing: "nan") == nil && FrameRate(parsing: "30/0") == nil)
    }

    @Test func frameTimesAreExact() {
        let ntsc = FrameRate(numerator: 30000, denominator: 1001)!
        #expect(ntsc.time(ofFrame: 30000) == 1001)
        #expect(FrameRate(numerator: 30, denominator: 1)!.frameCount(duration: 2) == 60)
        #expect(FrameRate(numerator: 30, denominator: 1)!.frameCount(duration: 0.01) == 1)
    }
}

@Suite struct ShapeAndGradientDecodingTests {
    @Test func shapeLayerDefaultsAreCoreAnimations() throws {
        let s = try decode(
            ##"{"width": 10, "height": 10, "fps": 10, "duration": 1, "layers": [{"type": "shape", "path": "M0 0 L10 10"}]}"##)
        let shape = s.layers[0].shape
        #expect(shape.fillColor == .black && shape.strokeColor == nil)
        #expect(
            shape.stroke.lineWidth == 1 && shape.stroke.miterLimit == 10 && shape.stroke.lineCap == .butt
                && shape.stroke.lineJoin == .miter)
        #expect(shape.stroke.strokeStart == 0 && shape.stroke.strokeEnd == 1 && shape.fillRule == .nonZero)
        #expect(shape.path.elements.count == 2)
    }

    @Test func gradientLayerDefaultsAreCoreAnimations() throws {
        let s = try decode(
            ##"{"width": 10, "height": 10, "fps": 10, "duration": 1, "layers": [{"type": "gradient", "colors": ["#000", "#fff"]}]}"##
        )
        let g = s.layers[0].gradient
        #expect(
            g.startPoint == Point(x: 0.5, y: 0) && g.endPoint == Point(x: 0.5, y: 1) && g.type == .axial && g.locations == nil)
    }

    @Test func shapesListAndNestedLayers() throws {
        let s = try decode(
            """
            {"width": 10, "height": 10, "fps": 10, "duration": 1, "layers": [
              {"name": "p", "sublayers": [{"name": "c", "type": "shape", "path": [{"oval": [0, 0, 4, 4]}, {"rect": [0, 0, 1, 1]},
                {"arc": [5, 5], "radius": 2, "startAngle": 0, "endAngle": 3.14, "clockwise": false}]}],
               "mask": {"name": "m", "bounds": [10, 10], "backgroundColor": "#000"}}]}
            """)
        #expect(s.layers[0].sublayers[0].name == "c")
        #expect(s.layers[0].mask?.name == "m")
        #expect(s.layers[0].sublayers[0].shape.path.elements.count > 8)
    }

    @Test func errorsNameThePlace() {
        let badKey = decodeError(
            ##"{"width": 10, "height": 10, "fps": 10, "duration": 1, "layers": [{"type": "layer", "fillColor": "#000"}]}"##)
        #expect(badKey?.message == "unknown key \"fillColor\" in a layer of type \"layer\"")
        let badCap = decodeError(
            ##"{"width": 10, "height": 10, "fps": 10, "duration": 1, "layers": [{"type": "shape", "lineCap": "rund"}]}"##)
        #expect(badCap?.path == "layers[0].lineCap" && badCap?.fix?.hasPrefix("did you mean \"round\"?") == true)
        let svg = decodeError(
            ##"{"width": 10, "height": 10, "fps": 10, "duration": 1, "layers": [{"type": "shape", "path": "M0 0 L5"}]}"##)
        // The string starts at column 92; offset 7 is the end of the data: column 92 + 1 + 7.
        #expect(svg?.location == SourceLocation(line: 1, column: 100))
        let locations = decodeError(
            ##"{"width": 10, "height": 10, "fps": 10, "duration": 1, "layers": [{"type": "gradient", "locations": [0, 0.5, 0.2]}]}"##
        )
        #expect(locations?.path == "layers[0].locations[2]")
        let dup = decodeError(
            ##"{"width": 10, "height": 10, "fps": 10, "duration": 1, "layers": [{"name": "a", "sublayers": [{"name": "a"}]}]}"##)
        #expect(dup?.message == "another layer is already named \"a\"")
    }
}

@Suite struct AnimationDecodingTests {
    let head = #""width": 100, "height": 100, "fps": 10, "duration": 1, "layers": [{"name": "a", "animations": ["#

    @Test func keyframeAnimationFromJSON() throws {
        let s = try decode(
            "{" + head
                + #"{"type": "keyframe", "keyPath": "opacity", "values": [1, 0.5, 0], "keyTimes": [0, 0.4, 0.6], "duration": 0.4, "timingFunction": "easeIn", "timingFunctions": [[0.1, 0, 0.9, 1], "linear"]}]}]}"#
        )
        guard case .keyframe(let a) = s.layers[0].animations[0] else {
            Issue.record("not a keyframe animation")
            return
        }
        #expect(a.keyTimes == [0, 0.4, 0.6] && a.timingFunction == .easeIn && a.timingFunctions.count == 2)
        #expect(a.timingFunctions[0] == TimingFunction(0.1, 0, 0.9, 1))
        // At t = 0.4 s (p = 1, y = 1): after 0.6, the last value.
        #expect(s.sample(at: 0.39999).layers[0].opacity == 0)
    }

    @Test func basicByValueAndAdditive() throws {
        let s = try decode("{" + head + #"{"keyPath": "position.x", "byValue": 10, "additive": true, "duration": 1}]}]}"#)
        // Model x = 0: additive by 10 from the model: at ½, 0 ⊕ (0 → 10 at ½) = 5.
        #expect(s.sample(at: 0.5).layers[0].position.x == 5)
    }

    @Test func errors() {
        let keyTimes = decodeError(
            "{" + head + #"{"type": "keyframe", "keyPath": "opacity", "values": [1, 0], "keyTimes": [0, 1, 0.5]}]}]}"#)
        #expect(
            keyTimes?.path == "layers[0].animations[0].keyTimes[2]" && keyTimes?.message.contains("must not decrease") == true)
        let mode = decodeError(
            "{" + head + #"{"type": "keyframe", "keyPath": "opacity", "values": [1], "calculationMode": "pacd"}]}]}"#)
        #expect(mode?.fix?.hasPrefix("did you mean \"paced\"?") == true)
        let tf = decodeError("{" + head + #"{"keyPath": "opacity", "toValue": 1, "timingFunction": "easOut"}]}]}"#)
        #expect(tf?.path == "layers[0].animations[0].timingFunction" && tf?.fix?.hasPrefix("did you mean \"easeOut\"?") == true)
        // SwiftUI's and CSS's name is accepted for easeInEaseOut.
        #expect(decodeError("{" + head + #"{"keyPath": "opacity", "toValue": 1, "timingFunction": "easeInOut"}]}]}"#) == nil)
        let type = decodeError("{" + head + #"{"type": "tween", "keyPath": "opacity"}]}]}"#)
        #expect(type?.message == "unknown animation type \"tween\"")
        let wrongKey = decodeError("{" + head + #"{"keyPath": "opacity", "values": [1]}]}]}"#)
        #expect(wrongKey?.message == "unknown key \"values\" in a basic animation")
    }
}

@Suite struct TransformKeyPathTests {
    func scene(_ animations: String, transform: String = "null") throws -> Scene {
        let t = transform == "null" ? "" : #", "transform": "# + transform
        return try decode(
            #"{"width": 100, "height": 100, "fps": 10, "duration": 1, "layers": [{"name": "a", "bounds": [10, 10]"# + t
                + #", "animations": ["# + animations + "]}]}")
    }

    /// The scalar animates, so 0 → 2π is a full turn: half way is π (a whole-matrix animation could not).
    @Test func rotationAnimatesTheScalar() throws {
        let s = try scene(#"{"keyPath": "transform.rotation.z", "fromValue": 0, "toValue": 6.283185307179586, "duration": 1}"#)
        let t = s.sample(at: 0.5).layers[0].transform
        #expect(zip(t.values, Transform3D.rotation(Double.pi).values).allSatisfy { abs($0 - $1) < 1e-9 })
    }

    /// transform.scale replaces the scale of the running transform and keeps its rotation.
    @Test func scaleKeepsTheRotation() throws {
        let s = try scene(
            #"{"keyPath": "transform.scale", "fromValue": 1, "toValue": 2, "duration": 1}"#, transform: #"{"rotation": 0.5}"#)
        let t = s.sample(at: 0.5).layers[0].transform
        let expected = Transform3D.scale(1.5, 1.5, 1.5).concatenating(.rotation(0.5))
        #expect(zip(t.values, expected.values).allSatisfy { abs($0 - $1) < 1e-9 }, "\(t.values)")
    }

    @Test func transformFormats() throws {
        let list = try scene("", transform: #"[{"scale": 2}, {"translation": [3, 4]}]"#).layers[0].transform
        #expect(list == Transform3D.scale(2, 2).concatenating(.translation(3, 4)))
        let sixteen = try scene("", transform: "[1,0,0,0, 0,1,0,0, 0,0,1,-0.002, 5,6,0,1]").layers[0].transform
        #expect(sixteen.m34 == -0.002 && sixteen.m41 == 5)
        let bad = decodeError(
            #"{"width": 100, "height": 100, "fps": 10, "duration": 1, "layers": [{"transform": {"rotate": 1}}]}"#)
        #expect(bad?.path == "layers[0].transform.rotate" && bad?.fix?.hasPrefix("did you mean \"rotation\"?") == true)
    }
}

@Suite struct SpringSceneTests {
    /// The spring press button of REFERENCE-ANIMATIONS.md §3: scale springs to 0.8 at 0.1 s (bounciness
    /// 20, speed 18), retargeted to 1.0 at 0.45 s.
    let scene = #"""
        {"width": 200, "height": 100, "fps": 60, "duration": 1.6, "layers": [{"name": "button", "bounds": [160, 56],
          "animations": [
            {"type": "popSpring", "keyPath": "transform.scale", "toValue": 0.8, "beginTime": 0.1, "springBounciness": 20, "springSpeed": 18},
            {"type": "popSpring", "keyPath": "transform.scale", "toValue": 1.0, "beginTime": 0.45, "springBounciness": 20, "springSpeed": 18}]}]}
        """#

    func scale(_ s: Scene, _ t: Double) -> Double { s.sample(at: t).layers[0].transform.m11 }

    @Test func overshootsAndRetargetsWithoutAJump() throws {
        let s = try decode(scene)
        #expect(scale(s, 0.05) == 1)  // before the press: the model value
        let minimum = stride(from: 0.1, to: 0.45, by: 1.0 / 600).map { scale(s, $0) }.min()!
        #expect(minimum < 0.8)  // a bouncy spring overshoots past its target
        // Retargeting keeps value and velocity: across 1 ms at the release the scale moves by less than
        // 1 ms of its own speed allows (|v| is a few units per second at most here).
        let before = scale(s, 0.45 - 0.0005), after = scale(s, 0.45 + 0.0005)
        #expect(abs(after - before) < 0.01)
        #expect(abs(scale(s, 1.6) - 1.0) < 0.0025)  // settled on the new target (τ/2 for scale)
    }

    @Test func caSpringDefaultsToItsSettlingDuration() throws {
        let s = try decode(
            #"{"width": 10, "height": 10, "fps": 10, "duration": 5, "layers": [{"name": "a", "animations": [{"type": "spring", "keyPath": "opacity", "fromValue": 0, "toValue": 1, "damping": 5, "fillMode": "forwards", "removedOnCompletion": false}]}]}"#
        )
        guard case .spring(let a) = s.layers[0].animations[0] else {
            Issue.record("not a spring")
            return
        }
        #expect(abs(a.base.timing.duration - 2.87) < 0.005)
        #expect(abs(s.sample(at: 0.25).layers[0].opacity - a.fraction(at: 0.25)) < 1e-12)
    }
}

@Suite struct GroupSceneTests {
    func opacity(_ animations: String, at t: Double) throws -> Double {
        let s = try decode(
            #"{"width": 10, "height": 10, "fps": 10, "duration": 2, "layers": [{"name": "a", "animations": ["# + animations
                + "]}]}")
        return s.sample(at: t).layers[0].opacity
    }

    /// StarButton's notFavorite: children of 0.3 s in a group whose duration is not set (0.25 s): the
    /// group cuts them off at 0.25 s, five sixths of the way.
    @Test func groupClipsItsChildren() throws {
        let g =
            #"{"type": "group", "fillMode": "forwards", "removedOnCompletion": false, "animations": [{"keyPath": "opacity", "fromValue": 1, "toValue": 0.5, "duration": 0.3}]}"#
        #expect(abs(try opacity(g, at: 0.2) - (1 - 0.5 * 0.2 / 0.3)) < 1e-12)
        #expect(abs(try opacity(g, at: 1) - (1 - 0.5 * 0.25 / 0.3)) < 1e-12)  // held at the group's end, 0.58333
    }

    @Test func groupTimingFunctionWarpsChildren() throws {
        let g =
            #"{"type": "group", "duration": 1, "timingFunction": "easeIn", "animations": [{"keyPath": "opacity", "fromValue": 0, "toValue": 1}]}"#
        // The child has no duration: it runs for the group's 1 s, in time warped by easeIn.
        #expect(abs(try opacity(g, at: 0.5) - 0.315357) < Tolerance.sixDecimals)
        #expect(try opacity(g, at: 1.5) == 1)  // after the group, removed: the model value
    }

    @Test func groupsRefuseSprings() {
        let e = decodeError(
            #"{"width": 10, "height": 10, "fps": 10, "duration": 2, "layers": [{"animations": [{"type": "group", "animations": [{"type": "popSpring", "keyPath": "opacity", "toValue": 1}]}]}]}"#
        )
        #expect(e?.path == "layers[0].animations[0].animations[0]")
    }
}

@Suite struct ArrayAndPathAnimationTests {
    @Test func colorsAndLocationsAnimateElementWise() throws {
        let s = try decode(
            ##"{"width": 10, "height": 10, "fps": 10, "duration": 1, "layers": [{"name": "g", "type": "gradient", "colors": ["#000000", "#ffffff"], "animations": [{"keyPath": "colors", "toValue": ["#ffffff", "#000000"], "duration": 1}, {"keyPath": "locations", "fromValue": [0, 1], "toValue": [0.5, 1], "duration": 1}]}]}"##
        )
        let g = s.sample(at: 0.5).layers[0].gradient
        #expect(g.colors == [Color(red: 0.5, green: 0.5, blue: 0.5), Color(red: 0.5, green: 0.5, blue: 0.5)])
        #expect(g.locations == [0.25, 1])
    }

    @Test func mismatchedCountsIgnoreTheAnimation() throws {
        let s = try decode(
            ##"{"width": 10, "height": 10, "fps": 10, "duration": 1, "layers": [{"name": "g", "type": "gradient", "colors": ["#000000", "#ffffff"], "animations": [{"keyPath": "colors", "toValue": ["#ffffff", "#000000", "#ff0000"], "duration": 1}]}]}"##
        )
        #expect(s.sample(at: 0.5).layers[0].gradient.colors.count == 2)
    }

    @Test func pathMorphsInAScene() throws {
        let s = try decode(
            #"{"width": 10, "height": 10, "fps": 10, "duration": 1, "layers": [{"name": "p", "type": "shape", "path": "M0 0 L10 0", "animations": [{"keyPath": "path", "toValue": "M0 10 L10 10", "duration": 1}]}]}"#
        )
        #expect(s.sample(at: 0.5).layers[0].shape.path.currentPoint == Point(x: 10, y: 5))
    }
}

@Suite struct TimelineTests {
    /// StarButton's chain: the star's keyframe animation (0.05 + 0.4 s) ends at 0.45 s; then
    /// endFavorite sets its fill colour without animation and adds a 0.2 s keyframe animation.
    let scene = ##"""
        {"width": 100, "height": 100, "fps": 30, "duration": 2, "layers": [
          {"name": "star", "type": "shape", "fillColor": "#9e9b9b", "path": "M0 0 L10 0 L5 10 Z",
           "animations": [{"name": "favorite", "type": "keyframe", "keyPath": "transform.scale", "values": [1, 1.5, 0.01],
                           "keyTimes": [0, 0.4, 0.6], "duration": 0.4, "beginTime": 0.05, "fillMode": "backwards"}]}],
         "timeline": [
           {"after": "favorite", "layer": "star", "set": {"fillColor": "#ffffff", "transform.scale": 1},
            "add": [{"name": "end", "type": "keyframe", "keyPath": "transform.scale", "values": [0.01, 2, 1], "keyTimes": [0, 0.4, 0.6], "duration": 0.2}]},
           {"after": "end", "delay": 0.5, "layer": "star", "set": {"opacity": 0.5}, "animate": true}
         ]}
        """##

    @Test func actionsChainAfterNamedAnimations() throws {
        let s = try decode(scene)
        func star(_ t: Double) -> PresentationLayer { s.sample(at: t).layers[0] }
        #expect(star(0.44).shape.fillColor == Color(hex: "#9e9b9b"))
        #expect(star(0.46).shape.fillColor == .white)  // set at 0.45 s, not animated
        // The added animation runs 0.45–0.65 s: at 0.45 + 0.04 (p = 0.2, half of the first segment)
        // the scale is (0.01 + 2)/2 = 1.005.
        #expect(abs(star(0.49).transform.m11 - 1.005) < 1e-9)
        // "end" ends at 0.65 s; half a second later opacity animates to 0.5 over 0.25 s on the default curve.
        #expect(star(1.14).opacity == 1)
        #expect(abs(star(1.15 + 0.125).opacity - (1 - 0.5 * TimingFunction.default(0.5))) < 1e-9)
        #expect(star(1.5).opacity == 0.5)
        // The chains recorded for a timeline view: favorite stops at 0.45 s; end at 0.65 s, + 0.5 s delay.
        #expect(
            s.cues == [
                TimelineCue(after: "favorite", stop: 0.45, time: 0.45, layer: "star"),
                TimelineCue(after: "end", stop: 0.65, time: 1.15, layer: "star"),
            ])
    }

    @Test func timelineErrorsNameThePlace() {
        let unknown = decodeError(
            #"{"width": 10, "height": 10, "fps": 10, "duration": 1, "layers": [{"name": "a", "animations": [{"name": "fade", "keyPath": "opacity", "toValue": 0}]}], "timeline": [{"after": "fad", "layer": "a", "set": {"opacity": 1}}]}"#
        )
        #expect(unknown?.path == "timeline[0].after" && unknown?.fix?.hasPrefix("did you mean \"fade\"?") == true)
        let forever = decodeError(
            #"{"width": 10, "height": 10, "fps": 10, "duration": 1, "layers": [{"name": "a", "animations": [{"name": "spin", "keyPath": "opacity", "toValue": 0, "repeatCount": "infinity"}]}], "timeline": [{"after": "spin", "layer": "a"}]}"#
        )
        #expect(forever?.message == "animation \"spin\" never ends (it repeats forever)")
        let both = decodeError(
            #"{"width": 10, "height": 10, "fps": 10, "duration": 1, "layers": [{"name": "a"}], "timeline": [{"layer": "a"}]}"#)
        #expect(both?.message == "an action needs exactly one of \"at\" and \"after\"")
        let layer = decodeError(
            #"{"width": 10, "height": 10, "fps": 10, "duration": 1, "layers": [{"name": "a"}], "timeline": [{"at": 0, "layer": "b"}]}"#
        )
        #expect(layer?.path == "timeline[0].layer" && layer?.fix == "layers: a")
    }
}

@Suite struct YAMLTests {
    @Test func sameSceneAsJSON() throws {
        let yaml = try SceneDecoder.decode(
            yaml: """
                width: 100
                height: 50
                fps: "30000/1001"
                duration: 2
                background: "#101418"
                layers:
                  - name: card
                    position: [50, 25]
                    bounds: [10, 20]
                    backgroundColor: [1, 0, 0, 0.5]
                    hidden: false
                    animations:
                      - keyPath: position.x
                        fromValue: 0
                        toValue: 100
                        beginTime: 0.5
                        duration: 1
                """, file: "s.yaml")
        let json = try decode(
            ##"{"width": 100, "height": 50, "fps": "30000/1001", "duration": 2, "background": "#101418", "layers": [{"name": "card", "position": [50, 25], "bounds": [10, 20], "backgroundColor": [1, 0, 0, 0.5], "hidden": false, "animations": [{"keyPath": "position.x", "fromValue": 0, "toValue": 100, "beginTime": 0.5, "duration": 1}]}]}"##
        )
        #expect(yaml.pixelWidth == json.pixelWidth && yaml.fps == json.fps && yaml.background == json.background)
        #expect(yaml.layers[0].backgroundColor == json.layers[0].backgroundColor)
        #expect(yaml.sample(at: 0.75).layers[0].position == json.sample(at: 0.75).layers[0].position)
    }

    @Test func errorsNameLineAndColumn() {
        func err(_ text: String) -> SceneError? {
            do {
                _ = try SceneDecoder.decode(yaml: text, file: "s.yaml")
                return nil
            } catch { return error }
        }
        let type = err("width: 10\nheight: 10\nfps: 10\nduration: 1\nlayers:\n  - name: a\n    opacity: high\n")
        #expect(type?.path == "layers[0].opacity" && type?.location == SourceLocation(line: 7, column: 14))
        let syntax = err("width: 10\nheight: [10\nfps: 10\n")
        #expect(syntax?.location?.line == 3 && syntax?.message.hasPrefix("invalid YAML:") == true)
        let dup = err("width: 10\nwidth: 20\n")
        #expect(dup?.message == "invalid YAML: duplicate key \"width\"" && dup?.location == SourceLocation(line: 2, column: 1))
        #expect(err("")?.message.contains("empty") == true)
        #expect(err("width: .nan\n")?.message.contains("out of range") == true)
        // A quoted number is a string, as in JSON.
        #expect(err("width: \"10\"\nheight: 10\nfps: 10\nduration: 1\n")?.message == "expected a number, found a string")
    }
}

@Suite struct TimelineRepeatAndRemoveTests {
    func scene(_ timeline: String) throws -> Scene {
        try decode(
            #"{"width": 10, "height": 10, "fps": 10, "duration": 3, "layers": [{"name": "a", "animations": [{"name": "pulse", "keyPath": "cornerRadius", "fromValue": 0, "toValue": 10, "duration": 1, "repeatCount": "infinity"}]}], "timeline": "#
                + timeline + "}")
    }

    @Test func actionsRepeatEveryPeriodToTheEndOfTheClip() throws {
        let s = try scene(
            #"[{"at": 0, "every": 1, "times": "infinity", "layer": "a", "add": [{"keyPath": "opacity", "fromValue": 0, "toValue": 1, "duration": 0.5}]}]"#
        )
        for start in [0.0, 1, 2] {
            #expect(abs(s.sample(at: start + 0.25).layers[0].opacity - 0.5) < 1e-12, "occurrence at \(start)")
            #expect(s.sample(at: start + 0.75).layers[0].opacity == 1)  // between: the model value
        }
        #expect(s.layers[0].animations.count == 4)  // pulse, plus three within the 3 s clip
        let twice = try scene(
            #"[{"at": 0, "every": 1, "times": 2, "layer": "a", "add": [{"keyPath": "opacity", "fromValue": 0, "toValue": 1, "duration": 0.5}]}]"#
        )
        #expect(twice.sample(at: 2.25).layers[0].opacity == 1)
    }

    @Test func removeStopsANamedAnimation() throws {
        let s = try scene(#"[{"at": 1.5, "layer": "a", "remove": "pulse"}]"#)
        #expect(s.sample(at: 1.25).layers[0].cornerRadius == 2.5)
        #expect(s.sample(at: 1.75).layers[0].cornerRadius == 0)  // removed: the model value
    }

    @Test func errors() {
        #expect(
            decodeError(
                #"{"width": 10, "height": 10, "fps": 10, "duration": 3, "layers": [{"name": "a"}], "timeline": [{"at": 0, "times": 2, "layer": "a"}]}"#
            )?.message == "\"times\" needs \"every\"")
        let remove = decodeError(
            #"{"width": 10, "height": 10, "fps": 10, "duration": 3, "layers": [{"name": "a", "animations": [{"name": "pulse", "keyPath": "opacity", "toValue": 0}]}], "timeline": [{"at": 0, "layer": "a", "remove": "puls"}]}"#
        )
        #expect(remove?.message == "layer \"a\" has no animation named \"puls\"" && remove?.fix == "its animations: pulse")
    }
}

@Suite struct KeyframePathTests {
    func scene(_ extra: String) throws -> Scene {
        try decode(
            #"{"width": 10, "height": 10, "fps": 10, "duration": 1, "layers": [{"name": "a", "animations": [{"type": "keyframe", "keyPath": "position", "path": "M0 0 L30 0 L30 10", "duration": 1"#
                + extra + "}]}]}")
    }

    @Test func linearGivesEachElementASlot() throws {
        let s = try scene("")
        #expect(s.sample(at: 0.25).layers[0].position == Point(x: 15, y: 0))  // half of element 1
        #expect(s.sample(at: 0.75).layers[0].position == Point(x: 30, y: 5))  // half of element 2
    }

    @Test func pacedMovesAtConstantSpeed() throws {
        let s = try scene(#", "calculationMode": "paced""#)
        let p = s.sample(at: 0.25).layers[0].position  // 40 long: a quarter is 10 along the first line
        #expect(abs(p.x - 10) < 1e-6 && abs(p.y) < 1e-9)
        let q = s.sample(at: 0.875).layers[0].position  // 35 along: 5 down the second
        #expect(abs(q.x - 30) < 1e-9 && abs(q.y - 5) < 1e-6)
    }

    @Test func rotationModeFollowsTheTangent() throws {
        let s = try scene(#", "rotationMode": "auto""#)
        #expect(abs(s.sample(at: 0.25).layers[0].transform.m12) < 1e-9)  // along +x: no turn
        let down = s.sample(at: 0.75).layers[0].transform  // along +y: a quarter turn
        #expect(abs(down.m11) < 1e-9 && abs(down.m12 - 1) < 1e-9)
        let reverse = try scene(#", "rotationMode": "autoReverse""#).sample(at: 0.25).layers[0].transform
        #expect(abs(reverse.m11 + 1) < 1e-9)  // θ + π
    }

    @Test func pathNeedsAPointKeyPath() {
        let e = decodeError(
            #"{"width": 10, "height": 10, "fps": 10, "duration": 1, "layers": [{"animations": [{"type": "keyframe", "keyPath": "opacity", "path": "M0 0 L1 1"}]}]}"#
        )
        #expect(e?.path == "layers[0].animations[0].path" && e?.fix == "use keyPath \"position\"")
    }
}

@Suite struct ValueFunctionTests {
    func transform(_ anim: String, at t: Double) throws -> Transform3D {
        try decode(
            #"{"width": 10, "height": 10, "fps": 10, "duration": 2, "layers": [{"name": "a", "animations": ["# + anim + "]}]}"
        )
        .sample(at: t).layers[0].transform
    }

    /// rotateZ interpolates the angle itself: 0 → 2π passes π half way (a matrix animation could not).
    @Test func rotateZMakesAFullTurn() throws {
        let t = try transform(
            #"{"keyPath": "transform", "valueFunction": "rotateZ", "fromValue": 0, "toValue": 6.283185307179586, "duration": 1}"#,
            at: 0.5)
        #expect(abs(t.m11 + 1) < 1e-9 && abs(t.m22 + 1) < 1e-9)
    }

    /// Apple's group sample: `scale` from [1, 1, 1] to [3, 3, 3].
    @Test func scaleTakesThreeNumbers() throws {
        let t = try transform(
            #"{"keyPath": "transform", "valueFunction": "scale", "fromValue": [1, 1, 1], "toValue": [3, 3, 3], "duration": 1}"#,
            at: 0.5)
        #expect(t == Transform3D.scale(2, 2, 2))
    }

    @Test func errors() {
        let e = decodeError(
            #"{"width": 10, "height": 10, "fps": 10, "duration": 1, "layers": [{"animations": [{"keyPath": "opacity", "valueFunction": "rotateZ", "fromValue": 0, "toValue": 1}]}]}"#
        )
        #expect(e?.fix == "use keyPath \"transform\"")
        let missing = decodeError(
            #"{"width": 10, "height": 10, "fps": 10, "duration": 1, "layers": [{"animations": [{"keyPath": "transform", "valueFunction": "rotateZ", "toValue": 1}]}]}"#
        )
        #expect(missing?.path == "layers[0].animations[0].valueFunction")
    }
}

@Suite struct PlayTests {
    /// A named list defined once and played twice (QuartzCode's show/hide, the looping stroke morph).
    @Test func definedOncePlayedTwice() throws {
        let s = try decode(
            #"{"width": 10, "height": 10, "fps": 10, "duration": 3, "layers": [{"name": "a"}], "animations": {"fade": [{"keyPath": "opacity", "fromValue": 0, "toValue": 1, "duration": 0.5}]}, "timeline": [{"at": 0.5, "every": 1.5, "times": 2, "layer": "a", "play": "fade"}]}"#
        )
        #expect(s.sample(at: 0.75).layers[0].opacity == 0.5)
        #expect(s.sample(at: 2.25).layers[0].opacity == 0.5)
        #expect(s.sample(at: 1.5).layers[0].opacity == 1)
        let e = decodeError(
            #"{"width": 10, "height": 10, "fps": 10, "duration": 3, "layers": [{"name": "a"}], "animations": {"fade": []}, "timeline": [{"at": 0, "layer": "a", "play": "fad"}]}"#
        )
        #expect(e?.path == "timeline[0].play" && e?.fix?.hasPrefix("did you mean \"fade\"?") == true)
    }
}

@Suite struct ContentsGravityTests {
    let bounds = Rect(x: 0, y: 0, width: 100, height: 50)
    let image = Size(width: 40, height: 40)

    @Test func gravities() {
        #expect(ContentsGravity.resize.frame(for: image, in: bounds) == bounds)
        #expect(ContentsGravity.resizeAspect.frame(for: image, in: bounds) == Rect(x: 25, y: 0, width: 50, height: 50))
        #expect(ContentsGravity.resizeAspectFill.frame(for: image, in: bounds) == Rect(x: 0, y: -25, width: 100, height: 100))
        #expect(ContentsGravity.center.frame(for: image, in: bounds) == Rect(x: 30, y: 5, width: 40, height: 40))
        #expect(ContentsGravity.topRight.frame(for: image, in: bounds) == Rect(x: 60, y: 0, width: 40, height: 40))
        #expect(ContentsGravity.bottom.frame(for: image, in: bounds) == Rect(x: 30, y: 10, width: 40, height: 40))
    }

    @Test func decoded() throws {
        let s = try decode(
            #"{"width": 10, "height": 10, "fps": 10, "duration": 1, "layers": [{"contents": "a.png", "contentsGravity": "resizeAspect", "contentsScale": 2}]}"#
        )
        #expect(s.layers[0].contentsGravity == .resizeAspect && s.layers[0].contentsScale == 2)
        let e = decodeError(#"{"width": 10, "height": 10, "fps": 10, "duration": 1, "layers": [{"contentsGravity": "centre"}]}"#)
        #expect(e?.fix?.hasPrefix("did you mean \"center\"?") == true)
    }
}

@Suite struct ImplicitAnimationTests {
    /// Setting opacity with animation while a fade is running starts from the value on screen.
    @Test func startsFromThePresentationValue() throws {
        let s = try decode(
            #"{"width": 10, "height": 10, "fps": 10, "duration": 2, "layers": [{"name": "a", "animations": [{"keyPath": "opacity", "fromValue": 0, "toValue": 1, "duration": 1}]}], "timeline": [{"at": 0.5, "layer": "a", "set": {"opacity": 0.2}, "animate": true}]}"#
        )
        // At 0.5 s the fade shows 0.5 while the implicit animation (added later) starts there: 0.5.
        #expect(abs(s.sample(at: 0.5).layers[0].opacity - 0.5) < 1e-12)
        // Half way through its 0.25 s on the default curve: 0.5 + (0.2 − 0.5)·TF(½).
        #expect(abs(s.sample(at: 0.625).layers[0].opacity - (0.5 - 0.3 * TimingFunction.default(0.5))) < 1e-9)
        // After it ends the fade, still running and listed first but not replaced, shows again (as on iOS,
        // where a later non-additive animation only hides it while it runs); after the fade, the new model value.
        #expect(abs(s.sample(at: 0.75).layers[0].opacity - 0.75) < 1e-12)
        #expect(s.sample(at: 1.5).layers[0].opacity == 0.2)
    }
}
