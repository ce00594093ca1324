// Every tolerance the tests compare pictures, colours and measurements with, named by what it allows and why.

/// The tests' tolerances in one place (DESIGN.md, "Habits worth copying" 4): each is named by what it
/// allows, and its comment says why that much and no more. A value here is never widened to make a test
/// pass: a test that needs more has found a bug or a new reason, and the reason goes here with it.
///
/// Levels are steps of an 8-bit channel (0…255); pixels are device pixels; dB is PSNR over RGB.
public enum Tolerance {
    // MARK: - Coverage and strokes

    /// Anti-aliased alpha against each pixel's exact area (Sutherland–Hodgman clipping and the shoelace
    /// formula, computed by the test): ½ level for storing the area in 8 bits, ½ for the rasterizer's
    /// single-precision accumulation of cell areas along a row. A wrong edge, a missed cell or a stroke
    /// outline counting an overlap twice is tens of levels off.
    public static let exactAreaLevels = 1.0

    // MARK: - Gradients and images

    /// A gradient's pixel against the colour computed by hand at the pixel's centre: ½ level of dither,
    /// ½ level of rounding, and the 1024-entry ramp's step of ¼ level.
    public static let gradientLevels = 1.25

    /// `gradientLevels` where the pixels are filled four at a time in the coverage lanes, which hold a
    /// whole pixel's coverage to 65535/65536: 0.05 level more (of which 0.004 is that coverage).
    public static let gradientInLanesLevels = 1.3

    /// A gradient's colour where the test's own expected value is rounded to a whole level (premultiplied
    /// against straight mixing, read at one pixel): `gradientLevels`, plus the ½ level of rounding the
    /// expected value, rounded up to whole levels.
    public static let gradientRoundedLevels = 2

    /// The mean of an 8×8 tile of a dithered ramp against the exact ramp: the tile averages the 64
    /// dither offsets, so what is left is the ramp's step and rounding, well under a level; an undithered
    /// ramp of 4 levels over 512 px (flat bands) is off by up to half a band.
    public static let ditheredTileMeanLevels = 0.2

    /// An image sampled by the span kernel against 255·u computed by hand: rounding, and the kernel's
    /// 16-bit fixed-point products. Fixed-point steps that add up along a 3,800 px span were ~5 levels off.
    public static let imageSamplingLevels = 1.0

    // MARK: - Compositing

    /// A blend kernel's byte against the exact source-over value computed in doubles: rounded to the
    /// nearest level (½), and 0.01 more so that an exact value a hair past a half, in floating point, is
    /// not counted against a kernel that rounded it the other way.
    public static let nearestLevel = 0.51

    /// A colour composited by hand (group opacity, masks, blend modes, a half-transparent pixel read
    /// back): a value landing on a half level (127.5) rounds either way, and 8-bit rounding at each of
    /// two compositing steps can compound; one level. A wrong operator or order is tens of levels off.
    public static let roundingLevels = 1

    /// A scene's colour at a pixel computed by hand (layer colours composited by their opacities, a
    /// gradient layer's colour there, in the reference animations): 8-bit rounding of the hand value and
    /// of each compositing step, and a gradient's ½-level dither.
    public static let sceneColourLevels = 2

    /// A 2 pt line sampled near its centre line, against its colour: the sample point is computed, not
    /// placed on a pixel centre, so the pixel may be partly covered; what this tells apart is line from
    /// no line (a missing line leaves the background, some 85 levels away).
    public static let thinLineCentreLevels = 40

    // MARK: - Shadows

    /// A blurred shadow across a straight edge against the Gaussian's CDF computed from erf: the kernel is
    /// the density integrated over each pixel, so only rounding is left.
    public static let gaussianShadowLevels = 1.0

    /// A large soft shadow blurred on the coarse grid (`BandPainter.coarseShadowSigma`) against the
    /// Gaussian's CDF: the grid widens σ by about 1 %, under 1.5 levels of slope error across the edge,
    /// plus rounding.
    public static let coarseShadowLevels = 2.0

    /// A group's shadow drawn straight into the band against drawn through an offscreen picture: the
    /// direct way rounds twice (within 1 level of exact), the offscreen way three times with the picture's
    /// rounded alpha scaling the background (within 2.5 levels); source-over is associative, so nothing
    /// else tells them apart.
    public static let shadowPathsLevels = 3

    /// The ink (sum of alpha, in pixels) of an exactly blurred shadow against the shape's area: blur moves
    /// ink and does not make or lose it; what is left is the rounding of every pixel's alpha.
    public static let blurInkPixels = 0.5

    /// The ink of a coarse-grid shadow (σ = 20) against the shape's 400 px: pixels under half a level are
    /// not drawn, about 1 % of the blur's tail, and rounding.
    public static let coarseBlurInkPixels = 6.0

    /// A layer's blur filter against SciPy's `gaussian_filter` of the same unblurred frame (the issue's
    /// bar): Reel integrates the density over each pixel where SciPy samples it, stops at 3σ where SciPy
    /// goes on to 4σ, rounds to bytes, and from σ 4 blurs on a coarse grid; 40 dB is an RMS difference
    /// under 2.6 levels (measured 56.7–61.7 dB).
    public static let blurFilterPSNR = 40.0

    // MARK: - Independent renderers

    /// Reel against an independent renderer's golden (Skia or Cairo, drawn by a script in `scripts/`),
    /// over the whole picture: the two compute anti-aliased coverage differently (analytic AA and
    /// supersampling against exact area), which moves edge pixels by a few levels; 40 dB is an RMS
    /// difference under 2.6 levels.
    public static let goldenPSNR = 40.0

    /// Reel against an independent renderer's golden away from edges (where the golden's 3×3
    /// neighbourhood is flat within this much): gradient dithering (±½ level) and rounding. A wrong
    /// colour, join, dash or missing piece shows as tens of levels.
    public static let goldenFlatLevels = 2

    /// The SVG conformance corpus (resvg's renderings, over white): a test passes at this PSNR; below it
    /// a picture visibly differs (a missing element, a wrong paint or transform).
    public static let svgConformancePSNR = 30.0

    /// The Lottie conformance corpus (ThorVG's renderings): every frame of a file at least this…
    public static let lottieConformanceFramePSNR = 30.0

    /// …and the median frame at least this: Lottie files draw the same shapes over many frames, so a
    /// file whose typical frame is not close is wrong even when no single frame is far off.
    public static let lottieConformanceMedianPSNR = 40.0

    /// Text against Pillow + raqm's renderings of the same cases (`scripts/text-references.py`, at 32×
    /// and box-filtered down): Pillow hints glyphs and rounds each glyph's origin to 1/64 px, and the
    /// reference lies 44–71 dB from a 128× rendering, so its own error takes little of the budget.
    public static let textReferencePSNR = 35.0

    /// A glyph's pen position and a line's width against uharfbuzz's shaping of the same text: issue
    /// #17's "advances and cluster positions equal hb-shape's to 1/64 px" (HarfBuzz's 26.6 fixed point).
    public static let penPositionPixels = 1.0 / 64

    /// Where ink is centred (text or a picture centred in a frame), against the frame's centre: the
    /// ink's first and last columns are whole pixels, so the midpoint of them moves by up to one.
    public static let centringPixels = 1.0

    // MARK: - Encoding and decoding

    /// Flat synthetic frames encoded (H.264 at CRF 18) and decoded back: ≥ 40 dB PSNR (luma PSNR where
    /// 4:2:0 chroma at coloured edges would otherwise dominate). A BT.601/BT.709 or full/limited range
    /// mismatch moves saturated colours by 5 to 30 levels.
    public static let encodedPSNR = 40.0

    /// The centre of a flat patch after an encode and decode (4:2:0 chroma is flat there): Y′CbCr
    /// quantization and limited-range rounding both ways.
    public static let encodedPatchLevels = 2

    /// Reel's RGB → Y′CbCr conversion against swscale's: the rounding of two fixed/float computations of
    /// the same formula (swscale keeps 15-bit coefficients). Another matrix, range or chroma siting is
    /// tens of levels off on random colours.
    public static let swscaleLevels = 1

    /// A colour coded as 8-bit Y′CbCr and read back (a flat JPEG block keeping only its DC coefficient, a
    /// lossless 4:4:4 video in either matrix and range): rounding both ways. Read with the wrong matrix,
    /// a saturated red is some 10 levels off.
    public static let yCbCrRoundTripLevels = 3

    /// A lossy WebP frame's flat patch (quality 90): libwebp's own Y′CbCr conversion and rounding.
    public static let lossyWebPLevels = 4

    /// A VP9 picture with alpha composited by hand: VP9 codes colour in 4:2:0 Y′CbCr and alpha as a plane
    /// of its own, each a few levels off.
    public static let vp9AlphaLevels = 8

    /// A steady tone's RMS level after mixing and AAC at 192 kbit/s, as a fraction of its full level
    /// (volumes, fades): AAC codes a pure tone to well under 5 %.
    public static let aacToneLevel = 0.05

    /// A lossy GIF's pixel against the lossless GIF's, beyond the level's bound (lossy L: L/1000 of
    /// Oklab distance between the two palette colours): none. The writer's distance and the test's are
    /// the same single-precision formula on the same colours, so they agree to the bit; 1e-6 only spares
    /// the test a reordered sum. A pixel coded beyond its allowance is at least a palette step (~0.005) off.
    public static let gifLossyOklab: Float = 1e-6

    /// A lossy GIF's bytes against a lower level's on the same frames: at most this fraction more.
    /// Greedy LZW parsing is not monotone in the allowance: a longer string taken now teaches the
    /// dictionary strings that can fit the pixels after it worse. Measured on GIFLossyTests' clip:
    /// lossy 30 3.2 % over 20 (4,231 against 4,101 B), 60 4.1 % over 40 (4,141 against 3,979 B).
    public static let gifLossyLevelSlack = 0.05

    // MARK: - Numbers

    /// A value against a test vector printed to six decimals (CORE-ANIMATION.md's timing curves and
    /// springs): half the last printed digit.
    public static let sixDecimals = 5e-7
}
