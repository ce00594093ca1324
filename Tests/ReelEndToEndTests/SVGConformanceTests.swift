/// SVG against resvg's reference renderings: the development corpus in ../shared/svg (resvg's test
/// suite, never copied here; see its README), each test rendered as `reel still FILE.svg --width W`
/// does, composited over white as the reference is, and scored by PSNR (≥ 30 dB passes).
///
/// The gate (issue #18): at least 95 % of the consensus tests (where resvg and librsvg agree) pass.
/// The floors below are what passes now per area, so that a change that breaks a passing test fails
/// here. What fails, and why, is listed in docs/svg-conformance.md. Every test, the unsupported extras
/// included, is loaded and drawn in this process: one that crashed Reel would end the run.
import Foundation
import Reel
import ReelMedia
import ReelTestSupport
import Testing

@Suite struct SVGConformanceTests {
    static let corpus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("shared/svg")
    static let threshold = Tolerance.svgConformancePSNR
    /// Tests passing per area now (of masking 83, paint-servers 119, painting 152, shapes 127,
    /// structure 162): 629 of 643; consensus tests 555 of 559.
    static let floors = ["masking": 80, "paint-servers": 117, "painting": 151, "shapes": 127, "structure": 154]
    /// The rest of the suite (rows of role `next`, issue #49): consensus tests passing per area now, so
    /// that what #49 has drawn stays drawn while the areas climb to the 95 % gate (of the whole corpus's
    /// consensus tests, with compare.py --next, 2026-11-29: shapes and masking 100 %, filters 99.5 %,
    /// painting 98.4 %, structure 97.7 %, paint-servers 97.4 %, text 96.0 %).
    /// Measured 2026-11-29 (text with the machine's fonts: this process cannot take the corpus's
    /// fonts.conf, which compare.py gives `reel`; there text passes 168).
    static let nextFloors = [
        "filters": 196, "masking": 8, "paint-servers": 17, "painting": 111, "shapes": 6, "structure": 36, "text": 155,
    ]

    struct Row {
        var name: String
        var feature: String
        var width: Int
        var height: Int
        var scored: Bool
        /// resvg and librsvg agree on it (the gate counts these).
        var consensus: Bool
    }

    static func rows() -> [Row]? {
        guard let text = try? String(contentsOf: corpus.appendingPathComponent("MANIFEST.tsv"), encoding: .utf8) else {
            return nil
        }
        return text.split(separator: "\n").dropFirst().compactMap { line in
            let f = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard f.count >= 7 else { return nil }
            let size = f[3].split(separator: "x").compactMap { Int($0) }
            return Row(
                name: f[0], feature: f[1], width: size.first ?? 0, height: size.last ?? 0, scored: f[6] == "score",
                consensus: f[5] == "yes")
        }
    }

    /// PSNR of a premultiplied frame against a reference, both over white; nil when the sizes differ by
    /// more than `slack` pixels (the common area is compared otherwise).
    static func score(_ frame: [UInt8], _ fw: Int, _ fh: Int, _ reference: StillImage, slack: Int = 1) -> Double? {
        guard abs(fw - reference.width) <= slack, abs(fh - reference.height) <= slack else { return nil }
        let w = min(fw, reference.width), h = min(fh, reference.height)
        var sum = 0.0
        for y in 0..<h {
            for x in 0..<w {
                let a = (y * fw + x) * 4, b = (y * reference.width + x) * 4
                let alphaA = Double(frame[a + 3]), alphaB = Double(reference.rgba[b + 3])
                for c in 0..<3 {
                    // Both premultiplied: over white adds white times what alpha leaves.
                    let u = Double(frame[a + c]) + (255 - alphaA), v = Double(reference.rgba[b + c]) + (255 - alphaB)
                    sum += (u - v) * (u - v)
                }
            }
        }
        let mse = sum / Double(w * h * 3)
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }

    @Test func developmentCorpus() throws {
        guard let rows = Self.rows() else {
            print("SVGConformanceTests: ../shared/svg is not here; the SVG conformance tests were skipped")
            return
        }
        var passed: [String: Int] = [:], total: [String: Int] = [:], byFeature: [String: (Int, Int)] = [:]
        var consensusPassed = 0, consensusTotal = 0
        var nextPassed: [String: Int] = [:], nextTotal: [String: Int] = [:]
        for row in rows {
            let svg = Self.corpus.appendingPathComponent("tests/\(row.feature)/\(row.name).svg").path
            let area = String(row.feature.split(separator: "/").first ?? "")
            if row.scored {
                total[area, default: 0] += 1
                byFeature[row.feature, default: (0, 0)].1 += 1
                if row.consensus { consensusTotal += 1 }
            } else if row.consensus {
                nextTotal[area, default: 0] += 1
            }
            // A file Reel refuses is an error, not a crash: it simply does not pass.
            guard let clip = try? Reel.load(svg, overrides: SceneOverrides(width: row.width)),
                let frame = try? clip.renderer(threads: 2).frame(for: clip.scene, at: 0)
            else { continue }
            // The next rows are scored where they count: the consensus ones.
            guard row.scored || row.consensus else { continue }
            let reference = try ImageFile.read(
                path: Self.corpus.appendingPathComponent("tests/\(row.feature)/\(row.name).png").path)
            let passes = Self.score(frame.pixels, frame.width, frame.height, reference).map { $0 >= Self.threshold } ?? false
            guard row.scored else {
                if passes { nextPassed[area, default: 0] += 1 }
                continue
            }
            if passes {
                passed[area, default: 0] += 1
                byFeature[row.feature, default: (0, 0)].0 += 1
                if row.consensus { consensusPassed += 1 }
            }
        }
        for feature in byFeature.keys.sorted() {
            print("SVGConformanceTests: \(feature) \(byFeature[feature]!.0)/\(byFeature[feature]!.1)")
        }
        for area in total.keys.sorted() {
            print("SVGConformanceTests: \(area) \(passed[area, default: 0])/\(total[area]!) at ≥ 30 dB")
            #expect(passed[area, default: 0] >= Self.floors[area, default: 0], "\(area) fell below its floor")
        }
        // Every floor is checked: an area whose rows went missing fails instead of passing unseen.
        for area in Set(nextTotal.keys).union(Self.nextFloors.keys).sorted() {
            print("SVGConformanceTests: next, \(area): consensus \(nextPassed[area, default: 0])/\(nextTotal[area, default: 0])")
            #expect(nextPassed[area, default: 0] >= Self.nextFloors[area, default: 0], "next, \(area) fell below its floor")
        }
        print("SVGConformanceTests: consensus tests \(consensusPassed)/\(consensusTotal) at ≥ 30 dB (the gate: 95 %)")
        #expect(consensusPassed * 100 >= 95 * consensusTotal, "below the 95 % gate")
    }
}
