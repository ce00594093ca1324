import Foundation
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

    @Test func schemaMatchesTheDecoder() throws {
        let data = try Data(contentsOf: Self.schemaURL)
        let schema = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let defs = try #require(schema["$defs"] as? [String: Any])
        let keys = SceneDecoder.knownKeys
        func union(_ kinds: [String]) -> Set<String> { Set(kinds.flatMap { keys[$0] ?? [] }) }

        #expect(properties(schema) == Set(keys["scene"]!))
        #expect(
            properties(defs["layer"] as! [String: Any]) == union(["layer", "shapeLayer", "gradientLayer", "replicatorLayer"]))
        #expect(
            properties(defs["animation"] as! [String: Any])
                == union(["animationTiming", "basic", "keyframe", "spring", "popSpring", "group"]))
        #expect(properties(defs["action"] as! [String: Any]) == Set(keys["action"]!))
        #expect(properties(defs["transformStep"] as! [String: Any]) == Set(keys["transform"]!))
    }
}
