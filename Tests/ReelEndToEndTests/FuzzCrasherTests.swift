/// Every input the fuzzers ever crashed on (`fuzz/crashers-found/`, minimized) decodes or is refused
/// with an error — never a trap — and what decodes is finite: the fuzzers' finds stay fixed.
import Foundation
import Reel
import ReelDocument
import ReelGeometry
import ReelLottie
import ReelSVG
import Testing

@testable import ReelScene

@Suite struct FuzzCrasherTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("fuzz/crashers-found").path

    static var files: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter {
            !$0.hasPrefix(".") && !$0.hasSuffix(".md")
        }
        .sorted()
    }

    @Test func theFolderHoldsCrashers() {
        #expect(!Self.files.isEmpty, "no crashers in \(Self.folder)")
    }

    @Test(arguments: files)
    func crasherNoLongerCrashes(_ name: String) throws {
        let path = (Self.folder as NSString).appendingPathComponent(name)
        let bytes = [UInt8](FileManager.default.contents(atPath: path) ?? Data())
        if name.hasPrefix("path-") {
            // SVG path data: parsed, flattened and stroked as the fuzz target does.
            guard let p = try? Path(svgPathData: String(decoding: bytes, as: UTF8.self)) else { return }
            #expect(p.isFinite, "\(name) parsed to a non-finite path")
            _ = p.flattenedEdges()
            _ = Stroker.outline(p, style: StrokeStyle(), tolerance: 0.1)
        } else if name.hasPrefix("svg-") {
            // An SVG file, imported into layers as the fuzz target does.
            do {
                _ = try SVGImport.image(Data(bytes), file: name, name: "svg")
            } catch {
                #expect(!error.description.isEmpty)
            }
        } else if name.hasPrefix("lottie-") {
            // A Lottie file, imported and sampled as the fuzz target does.
            do {
                let (scene, _) = try LottieImport.scene(bytes, file: name)
                for t in [0, scene.duration / 2, scene.duration] { _ = scene.sample(at: t) }
            } catch {
                #expect(!error.description.isEmpty)
            }
        } else if name.hasPrefix("dotlottie-") {
            // A dotLottie archive, read from its file and imported as the fuzz target does.
            do {
                let document = try LottieContainer.read(path: path, kind: .dotLottie)
                let (scene, _) = try LottieImport.scene(document, file: name)
                _ = scene.sample(at: scene.duration / 2)
            } catch {
                #expect(!error.description.isEmpty)
            }
        } else if name.hasPrefix("preset-") {
            do {
                _ = try Preset.decode(yaml: String(decoding: bytes, as: UTF8.self), file: name, name: "p")
            } catch {
                #expect(!error.description.isEmpty)
            }
        } else if name.hasPrefix("manifest-") {
            do {
                _ = try BatchManifest.decode(YAMLReader.parse(String(decoding: bytes, as: UTF8.self), file: name), file: name)
            } catch {
                #expect(!error.description.isEmpty)
            }
        } else {
            let scene: Scene
            do {
                scene =
                    name.hasSuffix(".json")
                    ? try SceneDecoder.decode(bytes, file: name)
                    : try SceneDecoder.decode(yaml: String(decoding: bytes, as: UTF8.self), file: name)
            } catch {
                #expect(!error.description.isEmpty)
                return
            }
            // Sampled as a render would, after the end too (held animations, springs).
            for t in [0, scene.duration / 2, scene.duration, 2 * scene.duration] { _ = scene.sample(at: t) }
        }
    }
}
