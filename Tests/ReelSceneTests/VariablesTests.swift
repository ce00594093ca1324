// Scene variables: defaults, given values, `$name` and `${name}` references, errors at the reference, command-line values.
import ReelDocument
import ReelGeometry
import ReelScene
import Testing

/// Scene variables: declared with defaults, referenced as `$name` (any value) or `${name}` (text).
@Suite struct VariablesTests {
    static let scene = """
        width: 100
        height: 50
        fps: 10
        duration: 1
        variables:
          accent: "#ff3b30"
          side: 20
          where: [30, 25]
          icon: star
        layers:
          - name: "${icon}-button"
            position: $where
            bounds: [0, 0, $side, "${side}"]
            backgroundColor: $accent
            opacity: ${side}
          - name: "cost $${x} and $5"
            position: [0, 0]
        """

    func decode(_ text: String = Self.scene, _ values: [String: JSONNode] = [:]) throws(SceneError) -> Scene {
        try SceneDecoder.decode(yaml: text, file: "v.yaml", variables: values)
    }

    @Test func defaultsFillTheReferences() throws {
        let s = try decode(Self.scene.replacingOccurrences(of: "opacity: ${side}", with: "opacity: 1"))
        let layer = s.layers[0]
        #expect(layer.name == "star-button")
        #expect(layer.position == Point(x: 30, y: 25))
        #expect(layer.bounds == Rect(x: 0, y: 0, width: 20, height: 20))
        #expect(layer.backgroundColor == Color(hex: "#ff3b30"))
        // `$${` is a literal `${`; a `$` before anything else stays.
        #expect(s.layers[1].name == "cost ${x} and $5")
    }

    @Test func givenValuesWinOverDefaults() throws {
        let s = try decode(
            Self.scene.replacingOccurrences(of: "opacity: ${side}", with: "opacity: 1"),
            [
                "accent": SceneVariables.value(fromArgument: "#00ff00"), "where": SceneVariables.value(fromArgument: "[1, 2]"),
                "icon": SceneVariables.value(fromArgument: "heart"),
            ])
        #expect(s.layers[0].backgroundColor == Color(hex: "#00ff00"))
        #expect(s.layers[0].position == Point(x: 1, y: 2))
        #expect(s.layers[0].name == "heart-button")
    }

    /// A value that arrives through a variable is checked where it is used: the error names the line
    /// and column of the reference.
    @Test func aWrongValueIsReportedAtItsReference() {
        #expect {
            try decode(Self.scene.replacingOccurrences(of: "opacity: ${side}", with: "opacity: $accent"))
        } throws: { error in
            let e = error as! SceneError
            return e.location?.line == 15 && e.path == "layers[0].opacity"
        }
    }

    @Test func unknownNamesAreRefusedWithASuggestion() {
        #expect {
            try decode(Self.scene.replacingOccurrences(of: "$accent", with: "$acent"))
        } throws: { error in
            let e = error as! SceneError
            return e.location == SourceLocation(line: 14, column: 22) && e.message.contains("unknown variable \"acent\"")
                && (e.fix ?? "").contains("did you mean \"accent\"")
        }
        #expect {
            try decode(Self.scene, ["colour": SceneVariables.value(fromArgument: "#000")])
        } throws: { error in
            (error as! SceneError).message.contains("\"colour\", which the scene does not declare")
        }
        #expect {
            try decode(Self.scene.replacingOccurrences(of: "\"${icon}-button\"", with: "\"${where}-button\""))
        } throws: { error in
            (error as! SceneError).message.contains("is an array, which cannot go inside a string")
        }
    }

    @Test func commandLineValuesAreJSONOrText() {
        func kind(_ s: String) -> String { SceneVariables.value(fromArgument: s).kindName }
        #expect(kind("3.5") == "a number")
        #expect(kind("[1, 2]") == "an array")
        #expect(kind("#ff0000") == "a string")
        #expect(kind("true") == "a boolean")
        #expect(kind("Save") == "a string")
    }
}
