/// Lottie slots: the slots a file declares (kinds and defaults as a user writes them), properties that
/// name a slot taking the file's value or the one given, text slots keeping the file's style, and the
/// errors of a value for no slot or of the wrong kind.
import Foundation
import ReelDocument
import ReelGeometry
import ReelScene
import Testing

@testable import ReelLottie

@Suite struct LottieSlotsTests {
    /// A 60 × 60 square filled with the `accent` slot (blue, keyed to red over the second) at the
    /// `fade` slot's opacity (100), at the `place` slot's position (50, 50); a text layer saying the
    /// `title` slot's "Hi" in red at 20 pt.
    static let file = Array(
        """
        {"v": "5.7.0", "fr": 10, "ip": 0, "op": 10, "w": 100, "h": 100,
         "fonts": {"list": [{"fName": "NotoSans-Bold", "fFamily": "Noto Sans", "fStyle": "Bold"}]},
         "slots": {
           "accent": {"p": {"a": 1, "k": [{"t": 0, "s": [0, 0, 1, 1]}, {"t": 10, "s": [1, 0, 0, 1]}]}},
           "fade": {"p": {"a": 0, "k": 100}},
           "place": {"p": {"a": 0, "k": [50, 50, 0]}},
           "title": {"p": {"k": [{"t": 0, "s": {"t": "Hi", "f": "NotoSans-Bold", "s": 20, "lh": 24, "j": 0, "fc": [1, 0, 0]}}]}}},
         "layers": [
          {"ty": 5, "nm": "title", "ind": 2, "ip": 0, "op": 10, "st": 0, "ks": {}, "t": {"d": {"sid": "title"}}},
          {"ty": 4, "nm": "box", "ind": 1, "ip": 0, "op": 10, "st": 0, "ks": {"p": {"sid": "place"}, "o": {"sid": "fade"}},
           "shapes": [{"ty": "rc", "s": {"a": 0, "k": [60, 60]}, "p": {"a": 0, "k": [0, 0]}, "r": {"a": 0, "k": 0}},
                      {"ty": "fl", "c": {"sid": "accent"}, "o": {"a": 0, "k": 100}}]}]}
        """.utf8)

    static func root() throws -> JSONNode { try JSONParser.parse(file) }

    @Test func theFileDeclaresItsSlotsAsAUserWritesThem() throws {
        let slots = LottieSlots.declared(in: try Self.root())
        #expect(slots.map(\.id) == ["accent", "fade", "place", "title"])
        #expect(slots.map(\.kind) == [.color, .scalar, .vector, .text])
        // The first keyframe's blue as #rrggbb; a point without its z; the document's text.
        #expect(slots[0].value.string == "#0000ff")
        #expect(slots[1].value.number == 100)
        #expect(slots[2].value.numbers == [50, 50])
        #expect(slots[3].value.string == "Hi")
    }

    func imported(_ values: [String: JSONNode]) throws -> (box: Layer, fill: Layer, texts: [Layer], scene: Scene) {
        let (scene, _) = try LottieImport.scene(root: try Self.root(), file: "s.json", slots: values)
        let all = scene.layers.flatMap { $0.flattened() }.map(\.layer)
        let fill = try #require(all.first { $0.type == .shape && $0.shape.fillColor != nil })
        let box = try #require(all.first { $0.name.hasSuffix("box") })
        return (box, fill, all.filter { $0.type == .text }, scene)
    }

    func value(_ v: JSONNode.Value) -> JSONNode { JSONNode(value: v, location: SourceLocation(line: 1, column: 1)) }

    /// Without values, each property takes its slot's: the fill keyed from blue to red, opacity 1, the
    /// layer at (50, 50), the text "Hi".
    @Test func withoutValuesTheSlotsAreTheFiles() throws {
        let (box, fill, texts, scene) = try imported([:])
        #expect(fill.shape.fillColor == Color(red: 0, green: 0, blue: 1))
        #expect(!fill.animations.isEmpty)
        #expect(box.opacity == 1 && box.position == Point(x: 50, y: 50))
        #expect(texts.map(\.text.string) == ["Hi"])
        let later = scene.sample(at: 1).layers.flatMap { $0.flattened() }.map(\.layer)
        #expect(later.contains { $0.shape.fillColor == Color(red: 1, green: 0, blue: 0) })
    }

    /// Values given: the colour held (no keyframes left), opacity 50 → 0.5, the point, the text in the
    /// file's font, size and colour.
    @Test func valuesGivenReplaceTheSlots() throws {
        let (box, fill, texts, _) = try imported([
            "accent": value(.string("#ff3366")), "fade": value(.number(50)),
            "place": value(.array([value(.number(20)), value(.number(30))])), "title": value(.string("Hello")),
        ])
        #expect(fill.shape.fillColor == Color(red: 1, green: 0x33 / 255.0, blue: 0x66 / 255.0))
        #expect(fill.animations.isEmpty)
        #expect(box.opacity == 0.5 && box.position == Point(x: 20, y: 30))
        #expect(texts.map(\.text.string) == ["Hello"])
        #expect(texts.first?.text.fontSize == 20 && texts.first?.text.foregroundColor == Color(red: 1, green: 0, blue: 0))
        // A number from a table cell as text, and as a string for a number.
        let (_, _, numbered, _) = try imported(["title": value(.number(42)), "fade": value(.string("25"))])
        #expect(numbered.map(\.text.string) == ["42"])
    }

    @Test func aValueForNoSlotOrOfTheWrongKindIsRefused() throws {
        func message(_ values: [String: JSONNode]) -> String {
            do throws(DocumentError) {
                _ = try LottieImport.scene(root: (try? Self.root())!, file: "s.json", slots: values)
                return "imported"
            } catch {
                return "\(error.message) | \(error.fix ?? "")"
            }
        }
        #expect(
            message(["acent": value(.string("#ff0000"))])
                == "a value is given for the slot \"acent\", which the animation does not have (it has accent, fade, place, title) | did you mean \"accent\"? name one of its slots"
        )
        #expect(message(["accent": value(.string("red"))]).hasPrefix("the slot \"accent\" holds a colour, not \"red\""))
        #expect(message(["fade": value(.string("half"))]).hasPrefix("the slot \"fade\" holds a number, not \"half\""))
        #expect(message(["place": value(.number(3))]).hasPrefix("the slot \"place\" holds a point, not a number"))
        #expect(message(["title": value(.bool(true))]).hasPrefix("the slot \"title\" holds text, not a boolean"))
    }
}
