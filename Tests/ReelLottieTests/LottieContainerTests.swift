/// Lottie containers read in memory: dotLottie archives (both layouts), the animation chosen by id,
/// pictures taken from the archive, Telegram stickers; and hostile containers refused with the limit or
/// the entry named: names that climb out, bombs past an entry's limit and the archive's, too many
/// entries, a zip that is no archive, a manifest that lies.
import Foundation
import ReelDocument
import ReelGeometry
import ReelScene
import ReelTestSupport
import Testing

@testable import ReelLottie

@Suite struct LottieContainerTests {
    /// A 100 × 100 composition, 30 fps, one second: a 60 × 60 square of `color` (RGBA 0–1) at its centre.
    static func animation(_ color: [Double], images: [String] = []) -> [UInt8] {
        let assets = images.enumerated().map { i, p in
            #"{"id": "image_\#(i)", "w": 20, "h": 20, "u": "/i/", "p": "\#(p)", "e": 0}"#
        }
        let pictures = images.indices.map { i in
            #"{"ty": 2, "ind": \#(10 + i), "refId": "image_\#(i)", "ip": 0, "op": 30, "st": 0, "ks": {"p": {"a": 0, "k": [0, 0]}}},"#
        }
        let json = """
            {"v": "5.7.0", "fr": 30, "ip": 0, "op": 30, "w": 100, "h": 100, "assets": [\(assets.joined(separator: ","))],
             "layers": [\(pictures.joined())
               {"ty": 4, "ind": 1, "ip": 0, "op": 30, "st": 0, "ks": {"p": {"a": 0, "k": [50, 50]}}, "shapes": [
                 {"ty": "rc", "s": {"a": 0, "k": [60, 60]}, "p": {"a": 0, "k": [0, 0]}, "r": {"a": 0, "k": 0}},
                 {"ty": "fl", "c": {"a": 0, "k": \(color)}, "o": {"a": 0, "k": 100}}]}]}
            """
        return Array(json.utf8)
    }

    /// The container `bytes` read from a file named `name` in a folder of its own.
    static func read(
        _ bytes: [UInt8], _ name: String, kind: LottieContainer.Kind, animation: String? = nil, theme: String? = nil,
        limits: LottieContainerLimits = .standard
    ) throws(DocumentError) -> LottieDocument {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("reel-lottie-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent(name).path
        guard (try? Data(bytes).write(to: URL(fileURLWithPath: path))) != nil else {
            throw DocumentError(file: path, message: "the test could not write it")
        }
        return try LottieContainer.read(path: path, kind: kind, animation: animation, theme: theme, limits: limits)
    }

    static let manifest2 = Array(#"{"version": "2", "animations": [{"id": "red"}, {"id": "green"}]}"#.utf8)
    /// A 2 × 2 PNG's first bytes are enough: the reader keeps bytes, the decoder reads them later.
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]

    @Test func aVersion2ArchiveGivesItsFirstAnimationOrTheOneNamed() throws {
        let bytes = try TestContainers.zip([
            ("manifest.json", Self.manifest2), ("a/red.json", Self.animation([1, 0, 0, 1], images: ["img_0.png"])),
            ("a/green.json", Self.animation([0, 1, 0, 1])), ("i/img_0.png", Self.png),
        ])
        #expect(LottieContainer.kind(path: "x.lottie", prefix: Array(bytes.prefix(4))) == .dotLottie)
        let first = try Self.read(bytes, "x.lottie", kind: .dotLottie)
        #expect(first.animationID == "red" && first.animationIDs == ["red", "green"])
        #expect(first.root["layers"]?.items?.last?["shapes"]?.items?[1]["c"]?["k"]?.items?.first?.number == 1)
        // The picture, as the data: URI an embedded one would be, under the asset's u + p.
        #expect(first.pictures == ["/i/img_0.png": "data:image/png;base64," + Data(Self.png).base64EncodedString()])
        let green = try Self.read(bytes, "x.lottie", kind: .dotLottie, animation: "green")
        #expect(green.animationID == "green" && green.pictures.isEmpty)
        // The import takes the picture as embedded: an image layer with it as its contents.
        let (scene, notes) = try LottieImport.scene(first, file: "x.lottie")
        #expect(!notes.contains { $0.contains("image layer") }, "\(notes)")
        let contents = scene.layers[0].flattened().compactMap { $0.0.contents }
        #expect(contents == ["data:image/png;base64," + Data(Self.png).base64EncodedString()])
        #expect(throws: DocumentError.self) {
            try Self.read(bytes, "x.lottie", kind: .dotLottie, animation: "gren")
        }
        do {
            _ = try Self.read(bytes, "x.lottie", kind: .dotLottie, animation: "blue")
        } catch {
            #expect(error.message == "has no animation \"blue\"" && error.fix?.contains("red, green") == true, "\(error)")
        }
    }

    @Test func aVersion1ArchiveKeepsItsAnimationsAndImagesInTheirFolders() throws {
        let bytes = try TestContainers.zip([
            ("manifest.json", Array(#"{"version": "1.0", "animations": [{"id": "only"}]}"#.utf8)),
            ("animations/only.json", Self.animation([0, 0, 1, 1], images: ["a.png"])), ("images/a.png", Self.png),
        ])
        let document = try Self.read(bytes, "v1.lottie", kind: .dotLottie)
        #expect(document.animationID == "only")
        #expect(document.pictures["/i/a.png"]?.hasPrefix("data:image/png;base64,") == true)
    }

    @Test func aStickerIsGzippedLottie() throws {
        let json = Self.animation([1, 1, 0, 1])
        let bytes = try TestContainers.gzip(json)
        #expect(LottieContainer.kind(path: "s.tgs", prefix: Array(bytes.prefix(4))) == .sticker)
        #expect(LottieContainer.kind(path: "s.json", prefix: Array(bytes.prefix(4))) == nil)
        let document = try Self.read(bytes, "s.tgs", kind: .sticker)
        #expect(document.root["w"]?.number == 100 && document.animationID == nil)
        // A sticker holds one animation: naming one is a mistake, not ignored.
        #expect(throws: DocumentError.self) { try Self.read(bytes, "s.tgs", kind: .sticker, animation: "a") }
        // A gzip bomb: 200 KB of spaces, past a limit of 100 KB.
        var limits = LottieContainerLimits()
        limits.entryBytes = 100_000
        let bomb = try TestContainers.gzip([UInt8](repeating: 0x20, count: 200_000))
        #expect(bomb.count < 1_000)
        do {
            _ = try Self.read(bomb, "b.tgs", kind: .sticker, limits: limits)
            Issue.record("a sticker past the limit was read")
        } catch {
            #expect(error.message.contains("expands to more than"), "\(error)")
        }
    }

    /// dotLottie 2 themes: the animation's `initialTheme` by default, another asked for by id, each
    /// rule a value for a slot (a rule for another animation skipped, one keyframed left with a note),
    /// values given for a slot winning over the theme's; an unknown theme refused with the ids.
    @Test func themesFillTheAnimationsSlots() throws {
        let animation = Array(
            """
            {"v": "5.7.0", "fr": 10, "ip": 0, "op": 10, "w": 100, "h": 100,
             "slots": {"accent": {"p": {"a": 0, "k": [0, 0, 1, 1]}}, "fade": {"p": {"a": 0, "k": 100}}},
             "layers": [{"ty": 4, "nm": "box", "ind": 1, "ip": 0, "op": 10, "st": 0, "ks": {"o": {"sid": "fade"}},
               "shapes": [{"ty": "rc", "s": {"a": 0, "k": [60, 60]}, "p": {"a": 0, "k": [50, 50]}, "r": {"a": 0, "k": 0}},
                          {"ty": "fl", "c": {"sid": "accent"}, "o": {"a": 0, "k": 100}}]}]}
            """.utf8)
        let night = #"""
            {"rules": [{"id": "accent", "type": "Color", "value": [0.5, 0, 0.5, 1]},
                       {"id": "fade", "type": "Scalar", "value": 50, "animations": ["other"]},
                       {"id": "fade", "type": "Scalar", "keyframes": [{"frame": 0, "value": 10}]}]}
            """#
        let bytes = try TestContainers.zip([
            (
                "manifest.json",
                Array(
                    #"{"version": "2", "animations": [{"id": "badge", "initialTheme": "night"}], "themes": [{"id": "night"}, {"id": "day"}]}"#
                        .utf8)
            ),
            ("a/badge.json", animation), ("t/night.json", Array(night.utf8)),
            ("t/day.json", Array(#"{"rules": [{"id": "accent", "type": "Color", "value": [1, 1, 0, 1]}]}"#.utf8)),
        ])
        func fill(_ document: LottieDocument, _ slots: [String: JSONNode] = [:]) throws -> (Color?, Double, [String]) {
            let (scene, notes) = try LottieImport.scene(document, file: "t.lottie", slots: slots)
            let all = scene.layers.flatMap { $0.flattened() }.map(\.layer)
            let box = all.first { $0.name.hasSuffix("box") }
            return (all.first { $0.type == .shape && $0.shape.fillColor != nil }?.shape.fillColor, box?.opacity ?? -1, notes)
        }
        let first = try Self.read(bytes, "t.lottie", kind: .dotLottie)
        #expect(first.themeID == "night" && first.themeIDs == ["night", "day"])
        let (colour, opacity, notes) = try fill(first)
        #expect(colour == Color(red: 0.5, green: 0, blue: 0.5) && opacity == 1)
        #expect(notes == ["t/night.json: rules[2]: keyframed theme values are not applied (the slot \"fade\" keeps the file's)"])
        let day = try Self.read(bytes, "t.lottie", kind: .dotLottie, theme: "day")
        #expect(try fill(day).0 == Color(red: 1, green: 1, blue: 0))
        let given = JSONNode(value: .string("#00ff00"), location: SourceLocation(line: 1, column: 1))
        #expect(try fill(day, ["accent": given]).0 == Color(red: 0, green: 1, blue: 0))
        do {
            _ = try Self.read(bytes, "t.lottie", kind: .dotLottie, theme: "dusk")
            Issue.record("an unknown theme was read")
        } catch {
            #expect(error.message == "has no theme \"dusk\"" && error.fix == "one of night, day", "\(error)")
        }
    }

    /// Each hostile archive is refused with its own reason.
    @Test(arguments: [
        ("climbs", [("manifest.json", manifest2), ("../red.json", [UInt8]("{}".utf8))], "reaches outside the archive"),
        ("absolute", [("manifest.json", manifest2), ("/etc/red.json", [UInt8]("{}".utf8))], "reaches outside the archive"),
        ("backslash", [("manifest.json", manifest2), ("a\\..\\..\\x", [UInt8]("{}".utf8))], "reaches outside the archive"),
        ("no manifest", [("a/red.json", [UInt8]("{}".utf8))], "without a manifest.json"),
        ("no animation listed", [("manifest.json", [UInt8](#"{"animations": []}"#.utf8))], "lists no animation"),
        ("listed, missing", [("manifest.json", manifest2)], "holds no a/red.json"),
        ("manifest not JSON", [("manifest.json", [UInt8]("{".utf8))], "invalid JSON"),
    ])
    func hostileArchivesAreRefused(_ name: String, _ entries: [(String, [UInt8])], _ reason: String) throws {
        let bytes = try TestContainers.zip(entries)
        do {
            _ = try Self.read(bytes, "h.lottie", kind: .dotLottie)
            Issue.record("\(name): read")
        } catch {
            #expect(error.message.contains(reason), "\(name): \(error)")
        }
    }

    /// Bombs: one entry past its limit (whatever its header says: the bytes are counted as they come),
    /// all the entries past the archive's, more entries than allowed; and bytes that are no zip.
    @Test func bombsAndBrokenZipsAreRefusedAtTheirLimit() throws {
        var limits = LottieContainerLimits()
        limits.entryBytes = 100_000
        limits.totalBytes = 150_000
        limits.entries = 5
        let zeros = [UInt8](repeating: 0x20, count: 120_000)
        func refusal(_ bytes: [UInt8]) -> String {
            do {
                _ = try Self.read(bytes, "b.lottie", kind: .dotLottie, limits: limits)
                return "read"
            } catch {
                return error.message
            }
        }
        let one = try TestContainers.zip([("manifest.json", Self.manifest2), ("a/red.json", zeros)])
        #expect(one.count < 2_000)
        #expect(refusal(one) == "a/red.json expands past 100000 bytes, the limit for one entry", "\(refusal(one))")
        // Two pictures of 80 KB each: each within its limit, together past the archive's 150 KB.
        let pictures = try TestContainers.zip([
            ("manifest.json", Self.manifest2), ("a/red.json", Self.animation([1, 0, 0, 1], images: ["p.png", "q.png"])),
            ("i/p.png", Self.png + [UInt8](repeating: 0, count: 80_000)),
            ("i/q.png", Self.png + [UInt8](repeating: 0, count: 80_000)),
        ])
        #expect(refusal(pictures).contains("the archive's limit"), "\(refusal(pictures))")
        let many = try TestContainers.zip((0..<6).map { ("f\($0)", [UInt8]("x".utf8)) })
        #expect(refusal(many).contains("more than 5 entries"))
        var broken = try TestContainers.zip([("manifest.json", Self.manifest2)])
        broken.removeLast(30)
        #expect(refusal(broken).contains("is not a dotLottie archive"))
    }
}
