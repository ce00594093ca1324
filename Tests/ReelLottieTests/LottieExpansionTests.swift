/// Precomps counted as they expand, before anything is built (issue #45): each instance of a precomp
/// builds its composition's layers again, and a file whose count passes the limit is refused at the
/// top-level layer that makes the most, with counts worked out by hand.
import Foundation
import ReelDocument
import Testing

@testable import ReelLottie

@Suite struct LottieExpansionTests {
    static func precomp(_ id: String, hidden: Bool = false) -> String {
        #"{"ty": 0, "refId": "\#(id)", "ks": {}, "ip": 0, "op": 10, "st": 0, "w": 10, "h": 10\#(hidden ? #", "hd": true"# : "")}"#
    }
    /// One layer and three shape items (a group of two): 4 items.
    static let shape =
        #"{"ty": 4, "ks": {}, "ip": 0, "op": 10, "st": 0, "shapes": [{"ty": "gr", "it": [{"ty": "rc", "p": {"k": [5, 5]}, "s": {"k": [4, 4]}, "r": {"k": 0}}, {"ty": "fl", "c": {"k": [1, 0, 0, 1]}, "o": {"k": 100}}]}]}"#

    static func file(assets: [(String, [String])], layers: [String]) throws -> JSONNode {
        let list = assets.map { #"{"id": "\#($0.0)", "layers": [\#($0.1.joined(separator: ", "))]}"# }
        let text =
            #"{"v": "5.7.0", "fr": 10, "ip": 0, "op": 10, "w": 10, "h": 10, "assets": [\#(list.joined(separator: ", "))], "#
            + #""layers": [\#(layers.joined(separator: ", "))]}"#
        return try JSONParser.parse(Array(text.utf8))
    }

    static func assets(_ root: JSONNode) -> [String: LottieAsset] { LottieImporter(animation: LottieAnimation(root)).assets }

    /// b: three shape layers, 12 items. a: two instances of b and a shape layer, 3 + 24 + 3 = 30 (its
    /// own layers 2 + 4, then 2 × 12). The file: a shape layer (4) and two instances of a (2 × 31): 66.
    @Test func theCountIsEveryInstancesLayersAndShapes() throws {
        let root = try Self.file(
            assets: [("a", [Self.precomp("b"), Self.precomp("b"), Self.shape]), ("b", Array(repeating: Self.shape, count: 3))],
            layers: [Self.shape, Self.precomp("a"), Self.precomp("a")])
        try LottieExpansion.check(LottieAnimation(root), assets: Self.assets(root), file: "t.json", limit: 66)
        do {
            try LottieExpansion.check(LottieAnimation(root), assets: Self.assets(root), file: "t.json", limit: 65)
            Issue.record("66 items passed a limit of 65")
        } catch {
            #expect(error.path == "layers[1]", "\(error)")
            #expect(
                error.message
                    == "its precomps expand to 66 layers and shape items, above the limit of 65 (this layer, an instance of precomp \"a\", makes 31 of them)"
            )
            #expect(error.location?.line == 1 && error.file == "t.json")
        }
    }

    /// Without precomps the count is the file's own layers and shape items, and the message says so.
    @Test func aFileWithoutPrecompsIsCountedAsItIs() throws {
        let root = try Self.file(assets: [], layers: Array(repeating: Self.shape, count: 3))
        try LottieExpansion.check(LottieAnimation(root), assets: Self.assets(root), file: "t.json", limit: 12)
        do {
            try LottieExpansion.check(LottieAnimation(root), assets: Self.assets(root), file: "t.json", limit: 11)
            Issue.record("12 items passed a limit of 11")
        } catch {
            #expect(error.path == "layers" && error.message == "the file holds 12 layers and shape items, above the limit of 11")
        }
    }

    /// A hidden precomp layer is not built, so neither is its content: 1 + 1 + 12 = 14.
    @Test func hiddenInstancesBuildNothing() throws {
        let root = try Self.file(
            assets: [("b", Array(repeating: Self.shape, count: 3))],
            layers: [Self.precomp("b", hidden: true), Self.precomp("b")])
        try LottieExpansion.check(LottieAnimation(root), assets: Self.assets(root), file: "t.json", limit: 14)
        #expect(throws: DocumentError.self) {
            try LottieExpansion.check(LottieAnimation(root), assets: Self.assets(root), file: "t.json", limit: 13)
        }
    }

    /// A precomp holding two instances of itself is built 64 levels deep by the import: 2⁶⁴ layers,
    /// which saturates the count, and is refused at once, as is the 1e8 fan-out through the importer.
    @Test func fanOutsAreRefusedBeforeBuilding() throws {
        let loop = try Self.file(
            assets: [("loop", [Self.precomp("loop"), Self.precomp("loop")])], layers: [Self.precomp("loop")])
        let start = Date()
        do {
            _ = try LottieImport.scene(root: loop, file: "loop.json")
            Issue.record("a self-referencing precomp was imported")
        } catch {
            #expect(error.message.contains("expand to more than 9223372036854775807 layers"), "\(error)")
            #expect(error.path == "layers[0]" && error.file == "loop.json")
        }
        // Ten instances of a1 … a6, each ten of the next, a7 ten shape layers of 4 items: a7 = 40,
        // a6 = 10 + 10 · 40 = 410, a5 = 4110, …, a1 = 41111110; the file 10 · (1 + a1) = 411111110.
        let chain = (1...7).map { d in ("a\(d)", Array(repeating: d < 7 ? Self.precomp("a\(d + 1)") : Self.shape, count: 10)) }
        let fan = try Self.file(assets: chain, layers: Array(repeating: Self.precomp("a1"), count: 10))
        do {
            _ = try LottieImport.scene(root: fan, file: "fan.json")
            Issue.record("1e8 layers were imported")
        } catch {
            #expect(error.message.hasPrefix("its precomps expand to 411111110 layers and shape items, above the limit of 200000"))
        }
        #expect(Date().timeIntervalSince(start) < 2, "counting took \(Date().timeIntervalSince(start)) s")
    }
}
