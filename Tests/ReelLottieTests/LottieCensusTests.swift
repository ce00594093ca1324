/// `reel info`'s Lottie census against a file written for it: each feature found once with the JSON
/// path of its first use, and what Reel does not draw marked so.
import ReelDocument
import Testing

@testable import ReelLottie

@Suite struct LottieCensusTests {
    static let file = """
        {"v": "5.9.0", "fr": 25, "ip": 0, "op": 50, "w": 100, "h": 80,
         "assets": [{"id": "pic", "w": 1, "h": 1, "p": "https://example.com/a.png"}],
         "layers": [
          {"ty": 4, "nm": "s", "ind": 1, "ip": 0, "op": 50, "st": 0, "bm": 1, "tt": 3, "ks": {"sk": {"a": 0, "k": 10}},
           "ef": [{"ty": 29, "nm": "Flou gaussien"}, {"ty": 25, "nm": "Shadow"}, {"ty": 23, "nm": "Tritone"}],
           "shapes": [{"ty": "gr", "it": [{"ty": "rc"}, {"ty": "rp"}, {"ty": "zz"}, {"ty": "tr"}]}, {"ty": "fl", "c": {"a": 0, "k": [255, 0, 0, 1]}}]},
          {"ty": 5, "nm": "t", "ind": 2, "ip": 0, "op": 50, "st": 0, "ks": {"o": {"a": 0, "k": 100, "x": "time"}},
           "t": {"d": {"k": []}, "a": [{"s": {}}]}},
          {"ty": 9, "nm": "odd", "ind": 3, "ip": 0, "op": 50, "st": 0, "ks": {}}]}
        """

    @Test func findsEachFeatureAndWhatIsNotDrawn() throws {
        let census = try #require(LottieCensus.of(try JSONParser.parse(Array(Self.file.utf8))))
        #expect(census.version == "5.9.0" && census.frameRate == 25 && census.outPoint == 50)
        func feature(_ tag: String) -> LottieCensus.Feature? { census.features.first { $0.tag == tag } }
        #expect(feature("layer:shape")?.example == "layers[0]" && feature("layer:shape")?.support == .drawn)
        #expect(feature("blend:multiply")?.support == .drawn && feature("blend:multiply")?.example == "layers[0].bm")
        #expect(feature("matte:luma")?.support == .drawn && feature("skew")?.support == .drawn)
        // Effects Reel draws are named by type (a translated name too); the others by their name.
        #expect(feature("effect:Gaussian Blur")?.support == .drawn && feature("effect:Drop Shadow")?.support == .drawn)
        #expect(feature("effect:Tritone")?.support == .ignored)
        #expect(feature("shape:rp")?.example == "layers[0].shapes[0].it[1]" && feature("shape:rp")?.support == .drawn)
        #expect(feature("shape:zz")?.support == .ignored && feature("shape:gr")?.count == 1)
        #expect(feature("color:0-255")?.example == "layers[0].shapes[1].c")
        #expect(feature("layer:text")?.support == .partly && feature("text:animator")?.support == .ignored)
        #expect(feature("expression")?.example == "layers[1].ks.o.x")
        #expect(feature("layer:9")?.support == .ignored && feature("image:external")?.support == .ignored)
        #expect(LottieCensus.of(try JSONParser.parse(Array(#"{"width": 10}"#.utf8))) == nil)
    }
}
