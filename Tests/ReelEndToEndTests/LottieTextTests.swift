/// Lottie text layers through the command line, with a real font: placed by baseline and justification.
import Foundation
import ReelMedia
import ReelTestSupport
import Testing

/// A Lottie text layer sits on its baseline as SVG text does: "HHH" in DejaVu Sans at 40 points,
/// centred (j 2) on (100, 60): ink rows 30…59 (cap height 0.729 em) and columns centred on 100.
@Suite struct LottieTextTests {
    @Test func textSitsOnItsBaselineAndJustification() throws {
        guard FileManager.default.fileExists(atPath: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf") else {
            print("LottieTextTests skipped: DejaVu Sans is not installed (scripts/setup.sh installs it)")
            return
        }
        let ws = try Workspace()
        let file = ws.write(
            "text.json",
            """
            {"v": "5.7.0", "fr": 10, "ip": 0, "op": 10, "w": 200, "h": 100,
             "fonts": {"list": [{"fName": "DejaVuSans", "fFamily": "DejaVu Sans", "fStyle": "Book"}]},
             "layers": [{"ty": 5, "nm": "t", "ind": 1, "ip": 0, "op": 10, "st": 0, "ks": {"p": {"a": 0, "k": [100, 60]}},
               "t": {"d": {"k": [{"t": 0, "s": {"t": "HHH", "f": "DejaVuSans", "s": 40, "lh": 48, "j": 2, "fc": [0, 0, 0]}}]}}}]}
            """)
        let r = try runReel(["still", file, "--at", "0", "-o", ws.file("text.png")])
        #expect(r.status == 0, "\(r.stderr)")
        let png = try ImageFile.read(path: ws.file("text.png"))
        func dark(_ x: Int, _ y: Int) -> Bool { png.rgba[(y * png.width + x) * 4 + 3] > 5 }
        let rows = (0..<100).filter { y in (0..<200).contains { dark($0, y) } }
        let columns = (0..<200).filter { x in (0..<100).contains { dark(x, $0) } }
        #expect(rows.first == 30 && rows.last == 59, "\(rows)")
        let centre = Double((columns.first ?? 0) + (columns.last ?? 0) + 1) / 2
        #expect(abs(centre - 100) <= Tolerance.centringPixels, "ink columns \(columns.first ?? -1)…\(columns.last ?? -1)")
    }
}
