// Text layers in scene files: CATextLayer's defaults, rich runs, font features, per-unit animations, staggers, located errors.
import ReelAnimation
import ReelDocument
import ReelGeometry
import ReelScene
import Testing

/// Text layers in the scene format: every key read with CATextLayer's defaults, rich runs, font
/// features, per-unit animations and their timing, and the errors, each at its place.
@Suite struct TextDecodingTests {
    /// A scene whose one layer is a text layer named "t" with `members` added.
    static func scene(_ members: String) -> String {
        #"{"width": 200, "height": 100, "fps": 30, "duration": 2, "layers": [{"name": "t", "type": "text""#
            + (members.isEmpty ? "" : ", " + members) + "}]}"
    }

    static func text(_ members: String) throws -> TextProperties {
        try decode(scene(members)).layers[0].text
    }

    static func error(_ members: String) -> SceneError? { decodeError(scene(members)) }

    /// A text layer whose one unit animation is `members`, its animations given.
    static func units(_ members: String) throws -> TextProperties {
        try text(#""string": "x", "unitAnimations": [{"# + members + "}]")
    }

    @Test func defaultsAreCATextLayers() throws {
        let s = try decode(Self.scene(""))
        let text = s.layers[0].text
        #expect(s.layers[0].type == .text)
        #expect(text.string == "" && text.runs.isEmpty && text.spans == [TextSpan("")])
        #expect(text.font == "Inter" && text.fontSize == 36 && text.foregroundColor == .white)
        #expect(text.alignmentMode == .natural && !text.isWrapped && text.truncationMode == .none)
        #expect(text.lineHeight == 1 && text.letterSpacing == 0 && text.fontFeatures.isEmpty && text.unitAnimations.isEmpty)
        // Outlined text is off: no stroke colour, and the shape layer's line width.
        #expect(s.layers[0].shape.strokeColor == nil && s.layers[0].shape.stroke.lineWidth == 1)
        // The default font is named nowhere in the file: it is reported at the layer's key path.
        #expect(s.fontNames == ["Inter"])
        #expect(s.fontReferences["Inter"] == SourceReference(location: nil, path: "layers[0].font"))
    }

    @Test func everyKeyIsRead() throws {
        let s = try decode(
            Self.scene(
                #"""
                "string": "Hello\nworld", "font": "DejaVu Sans", "fontSize": 24.5, "foregroundColor": "#ff0000",
                "alignmentMode": "center", "isWrapped": true, "truncationMode": "middle", "lineHeight": 1.25,
                "letterSpacing": -0.5, "fontFeatures": {"tnum": 1, "liga": 0},
                "strokeColor": "#0000ff", "lineWidth": 2, "lineJoin": "round",
                "unitAnimations": [{"unit": "word", "stagger": 0.06, "order": "backward", "seed": 7,
                                    "animations": [{"keyPath": "opacity", "fromValue": 0, "toValue": 1}]}]
                """#))
        let layer = s.layers[0]
        let text = layer.text
        #expect(text.string == "Hello\nworld" && text.runs.isEmpty)
        #expect(text.font == "DejaVu Sans" && text.fontSize == 24.5 && text.foregroundColor == Color(red: 1, green: 0, blue: 0))
        #expect(text.alignmentMode == .center && text.isWrapped && text.truncationMode == .middle)
        #expect(text.lineHeight == 1.25 && text.letterSpacing == -0.5 && text.fontFeatures == ["tnum": 1, "liga": 0])
        #expect(layer.shape.strokeColor == Color(red: 0, green: 0, blue: 1))
        #expect(layer.shape.stroke.lineWidth == 2 && layer.shape.stroke.lineJoin == .round)
        #expect(text.unitAnimations.count == 1)
        let u = try #require(text.unitAnimations.first)
        #expect(u.unit == .word && u.stagger == 0.06 && u.order == .backward && u.seed == 7 && u.animations.count == 1)
        #expect(u.animations.first?.keyPath == "opacity")
        #expect(s.fontNames == ["DejaVu Sans"])
    }

    @Test func everyChoiceIsRead() throws {
        for mode in TextAlignmentMode.allCases {
            #expect(try Self.text(#""alignmentMode": "\#(mode.rawValue)""#).alignmentMode == mode)
        }
        for mode in TextTruncationMode.allCases {
            #expect(try Self.text(#""truncationMode": "\#(mode.rawValue)""#).truncationMode == mode)
        }
        for unit in TextUnit.allCases {
            let u = try Self.units(#""unit": "\#(unit.rawValue)", "animations": []"#).unitAnimations[0]
            #expect(u.unit == unit)
            // stagger, order and seed default to 0, forward, 0.
            #expect(u.stagger == 0 && u.order == .forward && u.seed == 0 && u.animations.isEmpty)
        }
        for order in StaggerOrder.allCases {
            let u = try Self.units(#""unit": "cluster", "order": "\#(order.rawValue)", "animations": []"#)
            #expect(u.unitAnimations[0].order == order)
        }
    }

    @Test func runsCarryTheirOwnAttributes() throws {
        let s = try decode(
            Self.scene(
                #"""
                "font": "DejaVu Sans", "fontSize": 20,
                "runs": [{"text": "Big ", "font": "Inter Bold", "fontSize": 48, "foregroundColor": [0, 1, 0],
                          "letterSpacing": 2, "fontFeatures": {"smcp": true}},
                         {"text": "small\n"}, {"text": "again", "font": "DejaVu Sans"}]
                """#))
        let text = s.layers[0].text
        #expect(text.string == "")
        #expect(
            text.runs == [
                TextSpan(
                    "Big ", font: "Inter Bold", fontSize: 48, foregroundColor: Color(red: 0, green: 1, blue: 0), letterSpacing: 2,
                    fontFeatures: ["smcp": 1]),
                TextSpan("small\n"), TextSpan("again", font: "DejaVu Sans"),
            ])
        #expect(text.spans == text.runs)
        // The layer's font first, then each run's, once each.
        #expect(text.fontNames == ["DejaVu Sans", "Inter Bold"] && s.fontNames == ["DejaVu Sans", "Inter Bold"])
    }

    @Test func runErrorsNameTheRun() {
        let missing = Self.error(#""runs": [{"text": "a"}, {"font": "Inter"}]"#)
        #expect(missing?.path == "layers[0].runs[1].text" && missing?.message == "a run needs its \"text\"")
        let unknown = Self.error(#""runs": [{"text": "a", "fontsize": 3}]"#)
        #expect(unknown?.message == "unknown key \"fontsize\" in a text run")
        #expect(unknown?.fix?.hasPrefix("did you mean \"fontSize\"?") == true)
        let notList = Self.error(#""runs": {"text": "a"}"#)
        #expect(notList?.path == "layers[0].runs")
        let both = Self.error(#""string": "a", "runs": [{"text": "b"}]"#)
        #expect(both?.path == "layers[0].runs" && both?.message == "give either \"string\" or \"runs\", not both")
        #expect(both?.location != nil)
        let emptyFont = Self.error(#""runs": [{"text": "a", "font": "  "}]"#)
        #expect(emptyFont?.path == "layers[0].runs[0].font" && emptyFont?.message == "the font name is empty")
    }

    /// A run's baseline is one of the named ones; another is an error at the run's key naming them, and
    /// text on a path reads its path and offset.
    @Test func runBaselinesAndTextOnAPath() throws {
        let text = try Self.text(#""runs": [{"text": "a", "baseline": "central"}, {"text": "b"}], "pathOffset": 12.5"#)
        #expect(text.runs.map(\.baseline) == [.central, nil] && text.pathOffset == 12.5)
        let wrong = Self.error(#""runs": [{"text": "a", "baseline": "center"}]"#)
        #expect(
            wrong?.path == "layers[0].runs[0].baseline" && wrong?.fix?.contains("central") == true, "\(String(describing: wrong))"
        )
        let path = try decode(Self.scene(#""path": "M 0 0 L 10 0""#)).layers[0]
        #expect(path.shape.path.elements.count == 2)
        #expect(Self.error(#""pathOffset": "far""#)?.path == "layers[0].pathOffset")
    }

    @Test func fontFeaturesAreTagsWithWholeValues() throws {
        let text = try Self.text(#""fontFeatures": {"tnum": true, "liga": false, "ss01": 1, "cv01": 3, "kern": 0}"#)
        #expect(text.fontFeatures == ["tnum": 1, "liga": 0, "ss01": 1, "cv01": 3, "kern": 0])

        let short = Self.error(#""fontFeatures": {"tnu": 1}"#)
        #expect(short?.path == "layers[0].fontFeatures.tnu" && short?.message == "\"tnu\" is not an OpenType feature tag")
        let long = Self.error(#""fontFeatures": {"ligatures": 1}"#)
        #expect(long?.path == "layers[0].fontFeatures.ligatures")
        let nonASCII = Self.error(#""fontFeatures": {"lïga": 1}"#)
        #expect(nonASCII?.message.contains("is not an OpenType feature tag") == true)
        for bad in ["1.5", "-1", "65536"] {
            let e = Self.error(#""fontFeatures": {"salt": \#(bad)}"#)
            #expect(
                e?.path == "layers[0].fontFeatures.salt" && e?.message.hasPrefix("a feature's value is a whole number") == true)
        }
        #expect(try Self.text(#""fontFeatures": {"salt": 65535}"#).fontFeatures == ["salt": 65535])
        #expect(Self.error(#""fontFeatures": {"salt": "on"}"#)?.message == "expected a number, found a string")
        #expect(Self.error(#""fontFeatures": ["liga"]"#)?.message == "fontFeatures is an object of OpenType tags")
        let inRun = Self.error(#""runs": [{"text": "1", "fontFeatures": {"tnum ": 1}}]"#)
        #expect(inRun?.path == "layers[0].runs[0].fontFeatures.tnum ")
    }

    @Test func choicesSuggestTheNearest() {
        let align = Self.error(#""alignmentMode": "centre""#)
        #expect(align?.path == "layers[0].alignmentMode")
        #expect(align?.fix?.hasPrefix("did you mean \"center\"?") == true, "\(String(describing: align))")
        #expect(align?.message == "\"centre\" is not one of natural, left, right, center, justified")
        let truncation = Self.error(#""truncationMode": "ends""#)
        #expect(truncation?.fix?.hasPrefix("did you mean \"end\"?") == true)
        let order = Self.error(#""unitAnimations": [{"unit": "word", "order": "centreOut", "animations": []}]"#)
        #expect(
            order?.path == "layers[0].unitAnimations[0].order" && order?.fix?.hasPrefix("did you mean \"centerOut\"?") == true)
        let unit = Self.error(#""unitAnimations": [{"unit": "words", "animations": []}]"#)
        #expect(unit?.path == "layers[0].unitAnimations[0].unit" && unit?.fix?.hasPrefix("did you mean \"word\"?") == true)
        let key = Self.error(#""strng": "x""#)
        #expect(
            key?.message == "unknown key \"strng\" in a layer of type \"text\""
                && key?.fix?.hasPrefix("did you mean \"string\"?") == true)
        // Text keys belong to text layers only.
        let plain = decodeError(#"{"width": 10, "height": 10, "fps": 10, "duration": 1, "layers": [{"string": "x"}]}"#)
        #expect(plain?.message == "unknown key \"string\" in a layer of type \"layer\"")
    }

    @Test func unitAnimationErrors() {
        let noUnit = Self.error(#""unitAnimations": [{"animations": []}]"#)
        #expect(noUnit?.path == "layers[0].unitAnimations[0].unit" && noUnit?.message == "a unit animation needs its \"unit\"")
        let noAnimations = Self.error(#""unitAnimations": [{"unit": "line"}]"#)
        #expect(noAnimations?.path == "layers[0].unitAnimations[0].animations")
        let stagger = Self.error(#""unitAnimations": [{"unit": "line", "stagger": -0.1, "animations": []}]"#)
        #expect(stagger?.path == "layers[0].unitAnimations[0].stagger")
        for seed in ["1.5", "-1", "1e17"] {
            let e = Self.error(#""unitAnimations": [{"unit": "line", "seed": \#(seed), "animations": []}]"#)
            #expect(e?.path == "layers[0].unitAnimations[0].seed", "seed \(seed)")
        }
        let unknown = Self.error(#""unitAnimations": [{"unit": "line", "delay": 1, "animations": []}]"#)
        #expect(unknown?.message == "unknown key \"delay\" in a unit animation")
    }

    @Test func aUnitAnimatesOnlyOpacityTransformAndColour() throws {
        let accepted = [
            #"{"keyPath": "opacity", "toValue": 0}"#, #"{"keyPath": "transform", "toValue": {"scale": 2}}"#,
            #"{"keyPath": "transform.scale", "toValue": 2}"#, #"{"keyPath": "transform.rotation", "toValue": 1}"#,
            #"{"keyPath": "transform.rotation.x", "toValue": 1}"#, #"{"keyPath": "transform.translation", "toValue": [1, 2]}"#,
            #"{"keyPath": "transform.translation.y", "toValue": 8}"#, ##"{"keyPath": "foregroundColor", "toValue": "#000"}"##,
            #"{"type": "keyframe", "keyPath": "opacity", "values": [0, 1], "calculationMode": "discrete"}"#,
            #"{"type": "spring", "keyPath": "transform.scale", "fromValue": 0.5, "toValue": 1}"#,
            #"{"type": "popSpring", "keyPath": "transform.scale", "toValue": 1}"#,
            #"{"type": "group", "animations": [{"keyPath": "opacity", "toValue": 0}]}"#,
        ]
        for a in accepted {
            let text = try Self.units(#""unit": "cluster", "animations": [\#(a)]"#)
            #expect(text.unitAnimations[0].animations.count == 1, "\(a)")
        }
        // The error is at the refused animation's keyPath, on the animation's line.
        let s = Self.scene(
            """
            "string": "x", "unitAnimations": [{"unit": "cluster", "animations": [
              {"keyPath": "opacity", "toValue": 0},
              {"keyPath": "position.x", "toValue": 3}]}]
            """)
        let e = decodeError(s)
        #expect(e?.path == "layers[0].unitAnimations[0].animations[1].keyPath")
        #expect(e?.message == "a text unit cannot animate \"position.x\"")
        #expect(e?.fix?.contains("opacity") == true && e?.fix?.contains("foregroundColor") == true)
        #expect(e?.location?.line == 3)
        // Text layer key paths a layer animates but a unit has not.
        for keyPath in ["fontSize", "letterSpacing"] {
            let e = Self.error(#""unitAnimations": [{"unit": "word", "animations": [{"keyPath": "\#(keyPath)", "toValue": 3}]}]"#)
            #expect(e?.message == "a text unit cannot animate \"\(keyPath)\"")
        }
        #expect(
            Self.error(#""unitAnimations": [{"unit": "word", "animations": [{"keyPath": "string", "toValue": "b"}]}]"#)?.message
                == "a text unit cannot animate \"string\"")
        // Inside a group too.
        let grouped = Self.error(
            #""unitAnimations": [{"unit": "word", "animations": [{"type": "group", "animations": [{"keyPath": "bounds.size.width", "toValue": 3}]}]}]"#
        )
        #expect(grouped?.message == "a text unit cannot animate \"bounds.size.width\"")
        #expect(grouped?.path == "layers[0].unitAnimations[0].animations[0].animations[0].keyPath")
    }

    @Test func textLengthIsLimitedInScalars() throws {
        let limit = 100_000
        #expect(try Self.text(#""string": "\#(String(repeating: "a", count: limit))""#).string.count == limit)
        let over = Self.error(#""string": "\#(String(repeating: "a", count: limit + 1))""#)
        #expect(over?.path == "layers[0].string" && over?.message == "the text is 100001 characters, above the limit of 100000")
        // e + combining acute: one character, two scalars; the limit counts scalars.
        let accents = Self.error(#""string": "\#(String(repeating: "e\u{301}", count: limit / 2 + 1))""#)
        #expect(accents?.message == "the text is 100002 characters, above the limit of 100000")
        // Runs count together.
        let half = String(repeating: "b", count: 60_000)
        let runs = Self.error(#""runs": [{"text": "\#(half)"}, {"text": "\#(half)"}]"#)
        #expect(runs?.path == "layers[0].runs[1].text" && runs?.message == "the runs hold more than 100000 characters")
    }

    @Test func sizesAndSpacingAreBounded() throws {
        #expect(try Self.text(#""fontSize": 10000"#).fontSize == 10_000)
        #expect(try Self.text(#""fontSize": 0"#).fontSize == 0)
        for bad in ["10000.5", "-1", "1e300"] {
            let e = Self.error(#""fontSize": \#(bad)"#)
            #expect(e?.path == "layers[0].fontSize" && e?.message.hasPrefix("fontSize is in points, 0…10000") == true, "\(bad)")
        }
        #expect(Self.error(#""runs": [{"text": "a", "fontSize": 20000}]"#)?.path == "layers[0].runs[0].fontSize")
        #expect(Self.error(#""letterSpacing": -10001"#)?.path == "layers[0].letterSpacing")
        #expect(try Self.text(#""letterSpacing": -10000"#).letterSpacing == -10_000)
        for bad in ["0", "-1", "101"] {
            #expect(Self.error(#""lineHeight": \#(bad)"#)?.path == "layers[0].lineHeight", "\(bad)")
        }
        #expect(try Self.text(#""lineHeight": 100"#).lineHeight == 100)
        #expect(Self.error(#""font": """#)?.message == "the font name is empty")
        #expect(Self.error(#""font": 3"#)?.message == "expected a string, found a number")
    }

    @Test func theLayersTextPropertiesAnimate() throws {
        let s = try decode(
            Self.scene(
                #"""
                "string": "z", "animations": [
                  {"keyPath": "string", "fromValue": "a", "toValue": "b", "duration": 1},
                  {"keyPath": "fontSize", "fromValue": 36, "toValue": 72, "duration": 1},
                  {"keyPath": "letterSpacing", "toValue": 10, "duration": 1},
                  {"keyPath": "foregroundColor", "fromValue": "#000000", "toValue": "#ffffff", "duration": 1}]
                """#))
        func at(_ t: Double) -> TextProperties { s.sample(at: t).layers[0].text }
        // string switches at the half, as booleans do; after the animation, the model's again.
        #expect(at(0).string == "a" && at(0.49).string == "a" && at(0.5).string == "b" && at(0.99).string == "b")
        #expect(at(1.5).string == "z")
        #expect(at(0.25).fontSize == 45 && at(0.5).letterSpacing == 5)
        #expect(at(0.5).foregroundColor == Color(red: 0.5, green: 0.5, blue: 0.5))
        // A number is text as written (string: $count); anything else is not text.
        let e = Self.error(#""animations": [{"keyPath": "string", "toValue": true}]"#)
        #expect(e?.path == "layers[0].animations[0].toValue" && e?.message == "expected a string, found a boolean")
    }

    // MARK: Per-unit timing, computed by hand.

    /// Opacity 0 → 1, linear over 1 s, staggered by 0.1 s: a unit of rank r at time t is t − 0.1·r.
    static func fade(_ order: StaggerOrder, seed: UInt64 = 0, fillMode: String = "removed") throws -> TextProperties {
        try units(
            #""unit": "word", "stagger": 0.1, "order": "\#(order.rawValue)", "seed": \#(seed), "animations": [{"keyPath": "opacity", "fromValue": 0, "toValue": 1, "duration": 1, "fillMode": "\#(fillMode)"}]"#
        )
    }

    func opacity(_ text: TextProperties, _ k: Int, of n: Int, at t: Double) -> Double {
        text.presentation(of: .word, k, count: n, at: t).opacity
    }

    @Test func forwardStagger() throws {
        let text = try Self.fade(.forward)
        // Unit 2 starts at 0.2 s: at 0.5 s it is 0.3 s in, 0.3 of the way.
        #expect(abs(opacity(text, 2, of: 5, at: 0.5) - 0.3) < 1e-12)
        #expect(abs(opacity(text, 0, of: 5, at: 0.5) - 0.5) < 1e-12)
        #expect(abs(opacity(text, 4, of: 5, at: 0.5) - 0.1) < 1e-12)
        // Before its start a unit shows its model value (fill mode removed), 1; with a backwards fill, 0.
        #expect(opacity(text, 4, of: 5, at: 0.3) == 1)
        #expect(try opacity(Self.fade(.forward, fillMode: "backwards"), 4, of: 5, at: 0.3) == 0)
        // After its end (1.2 s for unit 2) the model value again.
        #expect(opacity(text, 2, of: 5, at: 1.25) == 1)
        // Other units' animations do not apply: lines and clusters here are untouched.
        #expect(text.presentation(of: .line, 0, count: 1, at: 0.5) == UnitPresentation())
        #expect(text.presentation(of: .cluster, 2, count: 5, at: 0.5) == UnitPresentation())
    }

    @Test func backwardStagger() throws {
        let text = try Self.fade(.backward)
        // Of 4 units, unit 3 starts first and unit 0 last (0.3 s later).
        #expect(abs(opacity(text, 3, of: 4, at: 0.5) - 0.5) < 1e-12)
        #expect(abs(opacity(text, 0, of: 4, at: 0.5) - 0.2) < 1e-12)
        #expect(abs(opacity(text, 1, of: 4, at: 0.5) - 0.3) < 1e-12)
    }

    @Test func centerOutStagger() throws {
        let text = try Self.fade(.centerOut)
        // n = 4: the middle is 1.5; distances 1.5, 0.5, 0.5, 1.5 round down to 1, 0, 0, 1.
        #expect((0..<4).map { text.unitAnimations[0].rank(of: $0, count: 4) } == [1, 0, 0, 1])
        // n = 5: the middle is unit 2; distances 2, 1, 0, 1, 2.
        #expect((0..<5).map { text.unitAnimations[0].rank(of: $0, count: 5) } == [2, 1, 0, 1, 2])
        let four = [0.4, 0.5, 0.5, 0.4], five = [0.3, 0.4, 0.5, 0.4, 0.3]
        for k in 0..<4 { #expect(abs(opacity(text, k, of: 4, at: 0.5) - four[k]) < 1e-12, "unit \(k) of 4") }
        for k in 0..<5 { #expect(abs(opacity(text, k, of: 5, at: 0.5) - five[k]) < 1e-12, "unit \(k) of 5") }
    }

    @Test func randomStaggerIsASeededPermutation() throws {
        let n = 9
        func ranks(seed: UInt64) throws -> [Int] {
            let text = try Self.fade(.random, seed: seed)
            let u = text.unitAnimations[0]
            let r = (0..<n).map { u.rank(of: $0, count: n) }
            // The values drawn agree with the ranks: at 0.95 s, rank r is 0.95 − 0.1·r in.
            for k in 0..<n { #expect(abs(opacity(text, k, of: n, at: 0.95) - (0.95 - 0.1 * Double(r[k]))) < 1e-12) }
            return r
        }
        let a = try ranks(seed: 42)
        #expect(a.sorted() == Array(0..<n))
        #expect(try ranks(seed: 42) == a)
        let b = try ranks(seed: 43)
        #expect(b.sorted() == Array(0..<n))
        #expect(b != a)
        #expect(a != Array(0..<n) || b != Array(0..<n))  // not the identity for both
        // A single unit, and none, are fine.
        #expect(try Self.fade(.random, seed: 1).unitAnimations[0].rank(of: 0, count: 1) == 0)
    }

    @Test func fadeUpPerWordMovesAndColoursEachUnit() throws {
        let text = try Self.units(
            #"""
            "unit": "word", "stagger": 0.06, "animations": [
              {"keyPath": "opacity", "fromValue": 0, "toValue": 1, "duration": 0.5, "fillMode": "backwards"},
              {"keyPath": "transform.translation.y", "fromValue": 8, "toValue": 0, "duration": 0.5, "fillMode": "backwards"},
              {"keyPath": "foregroundColor", "fromValue": "#000000", "toValue": "#ffffff", "duration": 0.5, "beginTime": 1}]
            """#)
        // Word 1 starts at 0.06 s; at 0.31 s it is half way: opacity 0.5, 4 points low.
        let p = text.presentation(of: .word, 1, count: 3, at: 0.31)
        #expect(abs(p.opacity - 0.5) < 1e-12)
        #expect(abs(p.transform.m42 - 4) < 1e-9 && abs(p.transform.m41) < 1e-12)
        // Its colour animation has not begun: the runs' own colours should stay.
        #expect(p.foregroundColor == nil)
        // Word 2 before its start: the backwards fill holds the from values.
        let early = text.presentation(of: .word, 2, count: 3, at: 0.1)
        #expect(early.opacity == 0 && abs(early.transform.m42 - 8) < 1e-9)
        // The colour: word 0 at 1.25 s is half way from black to white.
        let c = try #require(text.presentation(of: .word, 0, count: 3, at: 1.25).foregroundColor)
        #expect(abs(c.red - 0.5) < 1e-12 && abs(c.green - 0.5) < 1e-12 && c.alpha == 1)
    }

    // MARK: Where fonts are named.

    @Test func eachFontIsRecordedWhereItIsFirstNamed() throws {
        let s = try decode(
            """
            {"width": 200, "height": 100, "fps": 30, "duration": 1,
             "layers": [
              {"name": "a", "type": "text", "string": "x",
               "font": "DejaVu Sans"},
              {"name": "b", "type": "text", "runs": [{"text": "y", "font": "DejaVu Sans"},
                {"text": "z", "font": "Inter Bold"}]}]}
            """)
        #expect(s.fontNames == ["DejaVu Sans", "Inter", "Inter Bold"])
        #expect(
            s.fontReferences["DejaVu Sans"]
                == SourceReference(location: SourceLocation(line: 4, column: 12), path: "layers[0].font"))
        #expect(s.fontReferences["Inter Bold"]?.location?.line == 6)
        #expect(s.fontReferences["Inter Bold"]?.path == "layers[1].runs[1].font")
        // Layer b names no font of its own: its default is recorded at its key path, with no place.
        #expect(s.fontReferences["Inter"] == SourceReference(location: nil, path: "layers[1].font"))

        let yaml = try SceneDecoder.decode(
            yaml: """
                width: 200
                height: 100
                fps: 30
                duration: 1
                layers:
                  - type: text
                    string: Hi
                    font: Inter Semi Bold Italic
                """, file: "test.yaml")
        #expect(yaml.fontReferences["Inter Semi Bold Italic"]?.location?.line == 8)
        #expect(yaml.fontReferences["Inter Semi Bold Italic"]?.path == "layers[0].font")
    }

    /// The default font is named nowhere; when a later layer writes the same name, that place is the one
    /// a "no font" error points at.
    @Test func aWrittenFontNameWinsOverTheDefault() throws {
        let s = try decode(
            """
            {"width": 200, "height": 100, "fps": 30, "duration": 1,
             "layers": [
              {"name": "a", "type": "text", "string": "x"},
              {"name": "b", "type": "text", "string": "y", "font": "Inter"}]}
            """)
        #expect(
            s.fontReferences["Inter"] == SourceReference(location: SourceLocation(line: 4, column: 56), path: "layers[1].font"))
    }
}
