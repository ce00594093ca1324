// swift-tools-version:6.0
import PackageDescription

// libFuzzer targets for Reel's decoders. A package of its own, so that the library keeps no
// sanitizer flags: scripts/fuzz.sh builds it with `-Xswiftc -sanitize=fuzzer,address` (and the same for
// C), which instruments this package and Reel's modules (and libyaml) alike. Each target is one file not named
// main.swift, so it is compiled as a library and libFuzzer provides `main`.
// REEL_FUZZ_PACKAGE: another copy of Reel to fuzz (scripts/fuzz.sh's FUZZ_REV), instead of this one.
let reel = Context.environment["REEL_FUZZ_PACKAGE"] ?? ".."

let package = Package(
    name: "ReelFuzz",
    dependencies: [.package(name: "Reel", path: reel)],
    targets: [
        .target(name: "FuzzSupport", dependencies: [.product(name: "Reel", package: "Reel")]),
        .executableTarget(name: "FuzzSceneJSON", dependencies: ["FuzzSupport", .product(name: "Reel", package: "Reel")]),
        .executableTarget(name: "FuzzSceneYAML", dependencies: ["FuzzSupport", .product(name: "Reel", package: "Reel")]),
        .executableTarget(name: "FuzzSVGPath", dependencies: ["FuzzSupport", .product(name: "Reel", package: "Reel")]),
        .executableTarget(name: "FuzzPreset", dependencies: ["FuzzSupport", .product(name: "Reel", package: "Reel")]),
        .executableTarget(name: "FuzzManifest", dependencies: ["FuzzSupport", .product(name: "Reel", package: "Reel")]),
        .executableTarget(name: "FuzzText", dependencies: ["FuzzSupport", .product(name: "Reel", package: "Reel")]),
        .executableTarget(name: "FuzzSVG", dependencies: ["FuzzSupport", .product(name: "Reel", package: "Reel")]),
        .executableTarget(name: "FuzzLottie", dependencies: ["FuzzSupport", .product(name: "Reel", package: "Reel")]),
        .executableTarget(name: "FuzzSubtitles", dependencies: ["FuzzSupport", .product(name: "Reel", package: "Reel")]),
        .executableTarget(name: "FuzzRows", dependencies: ["FuzzSupport", .product(name: "Reel", package: "Reel")]),
        .executableTarget(name: "FuzzGIF", dependencies: ["FuzzSupport", .product(name: "Reel", package: "Reel")]),
        .executableTarget(name: "FuzzTerminal", dependencies: ["FuzzSupport", .product(name: "Reel", package: "Reel")]),
        .executableTarget(name: "FuzzDotLottie", dependencies: ["FuzzSupport", .product(name: "Reel", package: "Reel")]),
    ],
    swiftLanguageModes: [.v6]
)
