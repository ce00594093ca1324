// schema/scene.schema.json against the decoder: the same keys, object by object, and the same choices.
import Foundation
import ReelGeometry
import ReelScene
import Testing

/// schema/scene.schema.json lists exactly the keys the decoder accepts, object by object, so editors
/// that validate with it agree with Reel.
@Suite struct SchemaSyncTests {
    static let schemaURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
        .appendingPathComponent("schema/scene.schema.json")

    func properties(_ object: [String: Any]) -> Set<String> {
        Set(((object["properties"] as? [String: Any]) ?? [:]).keys)
    }

    /// The `enum` of one property of a definition.
    func choices(_ object: [String: Any], _ key: String) -> Set<String> {
        let property = (object["properties"] as? [String: Any])?[key] as? [String: Any]
        return Set((property?["enum"] as? [String]) ?? [])
    }

    func schemaDefinitions() throws -> (schema: [String: Any], defs: [String: Any]) {
        let data = try Data(contentsOf: Self.schemaURL)
        let schema = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return (schema, try #require(schema["$defs"] as? [String: Any]))
    }

    @Test func schemaMatchesTheDecoder() throws {
        let (schema, defs) = try schemaDefinitions()
        let keys = SceneDecoder.knownKeys
        func union(_ kinds: [String]) -> Set<String> { Set(kinds.flatMap { keys[$0] ?? [] }) }

        #expect(properties(schema) == Set(keys["scene"]!))
        #expect(
            properties(defs["layer"] as! [String: Any])
                == union([
                    "layer", "shapeLayer", "gradientLayer", "replicatorLayer", "textLayer", "svgLayer", "videoLayer",
                    "terminalLayer",
                ]))
        #expect(
            properties(defs["animation"] as! [String: Any])
                == union(["animationTiming", "basic", "keyframe", "spring", "popSpring", "group"]))
        #expect(properties(defs["action"] as! [String: Any]) == Set(keys["action"]!))
        #expect(properties(try #require(defs["audioClip"] as? [String: Any])) == Set(try #require(keys["audio"])))
        #expect(properties(try #require(defs["captions"] as? [String: Any])) == Set(try #require(keys["captions"])))
        #expect(properties(try #require(defs["cue"] as? [String: Any])) == Set(try #require(keys["cue"])))
        #expect(properties(defs["transformStep"] as! [String: Any]) == Set(keys["transform"]!))
        #expect(properties(try #require(defs["textRun"] as? [String: Any])) == Set(try #require(keys["textRun"])))
        #expect(properties(try #require(defs["unitAnimation"] as? [String: Any])) == Set(try #require(keys["unitAnimation"])))
        #expect(properties(try #require(defs["terminalTheme"] as? [String: Any])) == Set(try #require(keys["terminalTheme"])))
    }

    /// The choices the schema offers are the decoder's: a layer's type, a text layer's modes, a unit
    /// animation's unit and order.
    @Test func textChoicesMatchTheDecoder() throws {
        let (_, defs) = try schemaDefinitions()
        let layer = try #require(defs["layer"] as? [String: Any])
        let unit = try #require(defs["unitAnimation"] as? [String: Any])
        #expect(choices(layer, "type") == Set(SceneDecoder.layerTypes))
        #expect(choices(layer, "alignmentMode") == Set(TextAlignmentMode.allCases.map(\.rawValue)))
        #expect(choices(layer, "truncationMode") == Set(TextTruncationMode.allCases.map(\.rawValue)))
        #expect(choices(unit, "unit") == Set(TextUnit.allCases.map(\.rawValue)))
        #expect(choices(unit, "order") == Set(StaggerOrder.allCases.map(\.rawValue)))
        #expect(unit["required"] as? [String] == ["unit", "animations"])
        #expect((defs["textRun"] as? [String: Any])?["required"] as? [String] == ["text"])
        #expect(
            choices(try #require(defs["textRun"] as? [String: Any]), "baseline") == Set(TextBaseline.allCases.map(\.rawValue)))
    }
}
