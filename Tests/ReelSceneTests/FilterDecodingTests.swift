// Layer `filters` read from scene files: types, names, inputs and their defaults, limits, and the key
// paths that animate them, with located errors.
import ReelAnimation
import ReelDocument
import ReelScene
import Testing

@Suite struct FilterDecodingTests {
    func scene(_ filters: String, animations: String = "[]", timeline: String = "[]") -> String {
        #"{"width": 100, "height": 100, "fps": 10, "duration": 1, "layers": [{"name": "card", "filters": "#
            + filters + #", "animations": "# + animations + #"}], "timeline": "# + timeline + "}"
    }

    @Test func filtersTheirNamesAndInputs() throws {
        let s = try decode(
            scene(
                #"[{"type": "gaussianBlur", "inputRadius": 4}, {"type": "colorControls", "name": "tone", "inputSaturation": 0.5}, {"type": "colorMatrix", "inputBiasVector": [0.1, 0, 0, 0]}]"#
            ))
        let f = s.layers[0].filters
        #expect(f.map(\.type) == [.gaussianBlur, .colorControls, .colorMatrix])
        // The name is the type's unless given; inputs not given keep Core Image's defaults.
        #expect(f.map(\.name) == ["gaussianBlur", "tone", "colorMatrix"])
        #expect(f[0].inputRadius == 4 && f[1].inputSaturation == 0.5 && f[1].inputContrast == 1 && f[1].inputBrightness == 0)
        #expect(f[2].inputBiasVector == [0.1, 0, 0, 0] && f[2].inputRVector == [1, 0, 0, 0])
    }

    @Test func animationsAndTimelineSetsReachInputsByName() throws {
        let s = try decode(
            scene(
                #"[{"type": "gaussianBlur", "name": "blur", "inputRadius": 0}]"#,
                animations: #"[{"keyPath": "filters.blur.inputRadius", "fromValue": 0, "toValue": 8, "duration": 0.5}]"#,
                timeline: #"[{"at": 0.5, "layer": "card", "set": {"filters.blur.inputRadius": 2}}]"#))
        let radius = AnimatedKeyPath(rawValue: "filters.blur.inputRadius")!
        // Half-way through the animation; then, once it has ended, the value the timeline set.
        #expect(radius.get(s.sample(at: 0.25).layers[0]) == .number(4))
        #expect(radius.get(s.sample(at: 0.75).layers[0]) == .number(2))
    }

    @Test func mistakesAreLocated() {
        let type = decodeError(scene(#"[{"type": "gausianBlur"}]"#))
        #expect(type?.path == "layers[0].filters[0].type" && type?.fix?.contains("did you mean \"gaussianBlur\"") == true)
        let input = decodeError(scene(#"[{"type": "colorInvert", "inputRadius": 3}]"#))
        #expect(input?.message == "unknown key \"inputRadius\" in a colorInvert filter")
        let radius = decodeError(scene(#"[{"type": "gaussianBlur", "inputRadius": 1000}]"#))
        #expect(radius?.path == "layers[0].filters[0].inputRadius" && radius?.message.contains("0…256") == true)
        let twice = decodeError(scene(#"[{"type": "gaussianBlur"}, {"type": "gaussianBlur"}]"#))
        #expect(twice?.path == "layers[0].filters[1].name" && twice?.message.contains("already named") == true)
        let many = decodeError(scene("[" + Array(repeating: #"{"type": "colorInvert"}"#, count: 9).joined(separator: ",") + "]"))
        #expect(many?.path == "layers[0].filters" && many?.message.contains("at most 8") == true)
        let vector = decodeError(scene(#"[{"type": "colorMatrix", "inputRVector": [1, 0, 0]}]"#))
        #expect(vector?.path == "layers[0].filters[0].inputRVector")
        let missing = decodeError(
            scene(#"[{"type": "gaussianBlur"}]"#, animations: #"[{"keyPath": "filters.blur.inputRadius", "toValue": 3}]"#))
        #expect(
            missing?.path == "layers[0].animations[0].keyPath" && missing?.message.contains("does not have") == true
                && missing?.fix == "the layer's filters are gaussianBlur")
        let wrongInput = decodeError(
            scene(
                #"[{"type": "gaussianBlur", "name": "blur"}]"#,
                animations: #"[{"keyPath": "filters.blur.inputSaturation", "toValue": 3}]"#))
        #expect(wrongInput?.message == "a gaussianBlur filter has no inputSaturation")
        let backdrop = decodeError(
            #"{"width": 100, "height": 100, "fps": 10, "duration": 1, "layers": [{"name": "glass", "backgroundFilters": [{"type": "gaussianBlur", "name": "frost"}], "animations": [{"keyPath": "filters.frost.inputRadius", "toValue": 3}]}]}"#
        )
        #expect(backdrop?.fix == "add it to the layer's \"filters\"")
        let s = try? decode(
            #"{"width": 100, "height": 100, "fps": 10, "duration": 1, "layers": [{"name": "glass", "backgroundFilters": [{"type": "gaussianBlur", "name": "frost"}], "animations": [{"keyPath": "backgroundFilters.frost.inputRadius", "fromValue": 0, "toValue": 8, "duration": 1}]}]}"#
        )
        #expect(
            s.map { AnimatedKeyPath(rawValue: "backgroundFilters.frost.inputRadius")!.get($0.sample(at: 0.5).layers[0]) }
                == .number(4))
        let set = decodeError(scene("[]", timeline: #"[{"at": 0, "layer": "card", "set": {"filters.glow.inputRadius": 2}}]"#))
        #expect(set?.path == "timeline[0].set.filters.glow.inputRadius" && set?.message.contains("does not have") == true)
    }
}
