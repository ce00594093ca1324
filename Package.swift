// swift-tools-version:6.0
import PackageDescription

// Module layout and dependency direction: see docs/architecture.md.
// Pure modules (Geometry, Animation, Scene) know nothing of FFmpeg or files;
// only ReelMedia imports the C libraries.
let package = Package(
    name: "Reel",
    products: [
        // The facade and the modules its API speaks in (scenes, animations, geometry, frames, media).
        .library(
            name: "Reel",
            targets: [
                "Reel", "ReelDocument", "ReelScene", "ReelAnimation", "ReelGeometry", "ReelRaster", "ReelRender", "ReelMedia",
                "ReelGIF", "ReelText", "ReelSVG", "ReelLottie", "ReelTerminal",
            ]
        ),
        .executable(name: "reel", targets: ["reel"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "5.0.1"),
        // SHA-256 of a batch job's inputs (scene, assets, options), to skip jobs already rendered.
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        // Batches from data: the rows of a CSV table (RFC 4180 quoting) as a job's variants.
        .package(url: "https://github.com/yaslab/CSV.swift", from: "2.5.2"),
        // reel preview's local HTTP server (only the command-line tool links it, not the library).
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
        // `swift package generate-documentation --target Reel`: the API reference (Sources/Reel/Reel.docc).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // dotLottie archives (.lottie, a zip): their manifest, animations, images and themes, read in memory.
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
    ],
    targets: [
        .systemLibrary(
            name: "CFFmpeg",
            pkgConfig: "libavformat libavcodec libswscale libswresample libavutil",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswscale-dev", "libswresample-dev", "libavutil-dev"])]
        ),
        .target(name: "ReelGeometry"),
        // The commit a binary is built from, for `reel --version` (only the command-line tool links it,
        // so a new commit relinks the tool and rebuilds nothing else).
        .target(name: "ReelBuildInfo", plugins: ["CommitStamp"]),
        .plugin(name: "CommitStamp", capability: .buildTool()),
        // The rasterizer's pixel kernels in C, compiled for each instruction set with target attributes
        // (portable, AVX2, AVX-512) and chosen at run time, every variant giving the same bytes (issue #48).
        .target(name: "CRasterKernels"),
        .target(name: "ReelRaster", dependencies: ["ReelGeometry", "CRasterKernels"]),
        .target(name: "ReelAnimation", dependencies: ["ReelGeometry"]),
        // Located JSON and YAML reading, limits and messages: what scenes, presets and manifests share.
        .target(
            name: "ReelDocument",
            dependencies: [
                "ReelGeometry", "CGzip", .product(name: "Yams", package: "Yams"),
            ]),
        // gzip'd documents (.svgz): zlib's inflate, with a limit on what a file may expand to.
        .target(name: "CGzip", linkerSettings: [.linkedLibrary("z")]),
        .target(name: "ReelScene", dependencies: ["ReelGeometry", "ReelAnimation", "ReelDocument"]),
        .target(name: "ReelRender", dependencies: ["ReelScene", "ReelRaster", "ReelText", "ReelTerminal"]),
        // Reel's GIF codec (palette, LZW, writer, segment join): plain Swift, no FFmpeg, so it is tested and
        // fuzzed alone; ReelMedia's VideoWriter writes GIFs through it.
        .target(name: "ReelGIF"),
        .target(name: "ReelMedia", dependencies: ["CFFmpeg", "ReelGIF"]),
        // The text stack (HarfBuzz, FreeType, fontconfig, FriBidi; ICU's line breaks behind one C function,
        // as its headers clash with Foundation's), fenced inside ReelText as FFmpeg is inside ReelMedia.
        .systemLibrary(
            name: "CText", pkgConfig: "harfbuzz freetype2 fontconfig fribidi",
            providers: [.apt(["libharfbuzz-dev", "libfreetype-dev", "libfontconfig-dev", "libfribidi-dev"])]
        ),
        .target(name: "CLineBreak", linkerSettings: [.linkedLibrary("icuuc")]),
        .target(name: "ReelText", dependencies: ["CText", "CLineBreak", "ReelGeometry", "ReelDocument"]),
        // libvterm, the terminal emulator terminal layers play recordings through, fenced inside ReelTerminal.
        .systemLibrary(name: "CVTerm", pkgConfig: "vterm", providers: [.apt(["libvterm-dev"])]),
        // Terminal sessions (issue #50): asciicast recordings read and played through libvterm into screens.
        .target(name: "ReelTerminal", dependencies: ["CVTerm", "CPseudoTerminal", "ReelDocument"]),
        // `reel record`'s pseudo-terminal: what Swift cannot import from the C library (posix_openpt, the
        // ioctl macros, posix_spawn's session flag), behind two functions.
        .target(name: "CPseudoTerminal"),
        // SVG files read (Foundation's XMLParser) into Reel's layers (issue #18).
        .target(name: "ReelSVG", dependencies: ["ReelScene", "ReelGeometry", "ReelDocument"]),
        // Lottie (Bodymovin) JSON imported into Reel's layers and keyframe animations (issue #19).
        .target(
            name: "ReelLottie",
            dependencies: [
                "ReelScene", "ReelAnimation", "ReelGeometry", "ReelDocument",
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ]),
        .target(
            name: "Reel",
            dependencies: [
                "ReelGeometry", "ReelRaster", "ReelAnimation", "ReelDocument", "ReelScene", "ReelRender", "ReelMedia", "ReelGIF",
                "ReelText", "ReelSVG", "ReelLottie", "ReelTerminal", .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CSV", package: "CSV.swift"),
            ]
        ),
        .executableTarget(
            name: "reel",
            dependencies: [
                "Reel", "ReelDocument", "ReelScene", "ReelAnimation", "ReelGeometry", "ReelMedia", "ReelGIF", "ReelText",
                "ReelLottie", "ReelRaster", "ReelBuildInfo", .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "FlyingFox", package: "FlyingFox"), .product(name: "FlyingSocks", package: "FlyingFox"),
            ]
        ),
        // scripts/bench-raster.sh: draws the benchmark's path sets with Reel (the peers draw them in Python).
        .executableTarget(name: "reel-bench-raster", dependencies: ["ReelRaster", "ReelGeometry"]),
        // scripts/bench-lottie.sh: every frame of a file drawn with no encoder, against ThorVG's own rendering.
        .executableTarget(name: "reel-bench-frames", dependencies: ["Reel", "ReelScene", "ReelRaster", "ReelRender"]),
        // examples/star-button.yaml written with the Swift API (a test compares the two).
        .executableTarget(
            name: "star-button-swift", dependencies: ["Reel", "ReelAnimation", "ReelGeometry", "ReelScene"],
            path: "examples/swift/StarButton"
        ),
        .testTarget(name: "ReelGeometryTests", dependencies: ["ReelGeometry"]),
        .testTarget(name: "ReelTerminalTests", dependencies: ["ReelTerminal", "ReelDocument"]),
        .testTarget(
            // CRasterKernels: KernelVariantTests calls each variant's kernels on the same spans.
            name: "ReelRasterTests",
            dependencies: ["ReelRaster", "ReelGeometry", "ReelMedia", "ReelTestSupport", "CRasterKernels"],
            resources: [.copy("Goldens")]
        ),
        .testTarget(name: "ReelAnimationTests", dependencies: ["ReelAnimation", "ReelTestSupport"]),
        .testTarget(name: "ReelSceneTests", dependencies: ["ReelScene", "ReelDocument", "ReelGeometry", "ReelTestSupport"]),
        // Goldens/: scene-level goldens drawn by Skia (scripts/scene-goldens.py), read back with ReelMedia's PNG reader.
        .testTarget(
            name: "ReelRenderTests",
            dependencies: [
                "ReelRender", "ReelRaster", "ReelScene", "ReelGeometry", "ReelAnimation", "ReelMedia", "ReelTestSupport",
            ],
            resources: [.copy("Goldens")]
        ),
        // Helpers shared by the test targets (temporary folders, test pictures, PSNR, GIF block reader, renderEveryWay,
        // the named tolerances).
        .target(
            name: "ReelTestSupport",
            dependencies: ["ReelRaster", .product(name: "ZIPFoundation", package: "ZIPFoundation")],
            path: "Tests/ReelTestSupport"),
        // Reference files read by path (#filePath), not bundled.
        .testTarget(name: "ReelTextTests", dependencies: ["ReelText", "ReelTestSupport"], exclude: ["References"]),
        .testTarget(name: "ReelSVGTests", dependencies: ["ReelSVG", "ReelScene", "ReelDocument", "ReelGeometry"]),
        .testTarget(
            name: "ReelLottieTests",
            dependencies: [
                "ReelLottie", "ReelScene", "ReelAnimation", "ReelDocument", "ReelGeometry", "ReelRender", "ReelRaster",
                "ReelTestSupport",
            ]),
        .testTarget(name: "ReelGIFTests", dependencies: ["ReelGIF", "ReelTestSupport"]),
        .testTarget(name: "ReelMediaTests", dependencies: ["ReelMedia", "ReelTestSupport", "CFFmpeg"]),
        .testTarget(
            name: "ReelEndToEndTests",
            dependencies: [
                "Reel", "ReelDocument", "ReelMedia", "ReelRaster", "ReelRender", "ReelScene", "ReelSVG", "ReelLottie",
                "ReelTestSupport",
                "ReelText", "ReelTerminal",
                "reel",
                "star-button-swift",
                .product(name: "Yams", package: "Yams"),
            ],
            exclude: ["TextReferences", "TerminalReferences"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
