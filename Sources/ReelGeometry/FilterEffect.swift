/// Filter effects as data (SVG's `<filter>`): a region and a chain of primitives, in one coordinate
/// space, carried to device pixels by `mapped(by:)`. The raster evaluates them (ReelRaster's
/// `FilterEffects.swift`); the SVG importer writes them.

/// A filter: primitives evaluated in order within `region`, each reading the source picture or an
/// earlier result; the last result replaces the picture, transparent outside the region.
public struct FilterEffect: Sendable, Hashable {
    public var region: Rect
    public var primitives: [FilterPrimitive]

    public init(region: Rect, primitives: [FilterPrimitive]) {
        self.region = region
        self.primitives = primitives
    }

    /// The names of the pictures its `image` primitives draw (the clip decodes them with the contents).
    public var imageNames: [String] {
        primitives.compactMap { p in
            if case .image(let name, _) = p.operation { return name }
            return nil
        }
    }

    /// The same filter in the space `t` maps to. Rectangles become their bounds there; lengths scale by
    /// the transform's stretch along x and along y (rotation and skew are not followed: a blur stays
    /// axis-aligned, as resvg draws it).
    public func mapped(by t: Transform2D) -> FilterEffect {
        let sx = (t.a * t.a + t.b * t.b).squareRoot(), sy = (t.c * t.c + t.d * t.d).squareRoot()
        return FilterEffect(
            region: region.applying(t),
            primitives: primitives.map { p in
                var q = p
                q.subregion = p.subregion.applying(t)
                q.operation = p.operation.mapped(by: t, sx: sx, sy: sy)
                return q
            })
    }
}

/// One step of a filter: an operation on its inputs, its output kept within `subregion`.
public struct FilterPrimitive: Sendable, Hashable {
    /// Where a primitive reads a picture from.
    public enum Input: Sendable, Hashable {
        /// The picture the filter applies to.
        case sourceGraphic
        /// Its alpha only (black where it covers).
        case sourceAlpha
        /// The result of the primitive at that index (an earlier one).
        case result(Int)
    }

    public var operation: FilterOperation
    /// As many as the operation reads: two for blend, composite and displacement map (the first on
    /// top), any number for merge, none for flood, turbulence and image.
    public var inputs: [Input]
    /// Outside it the result is transparent.
    public var subregion: Rect
    /// Whether the operation works on linear-light colour (SVG's default `color-interpolation-filters`)
    /// rather than sRGB.
    public var linearRGB: Bool

    public init(_ operation: FilterOperation, inputs: [Input], subregion: Rect, linearRGB: Bool) {
        self.operation = operation
        self.inputs = inputs
        self.subregion = subregion
        self.linearRGB = linearRGB
    }
}

/// What a primitive does, with lengths in the filter's space.
public enum FilterOperation: Sendable, Hashable {
    /// A Gaussian of standard deviations x and y.
    case gaussianBlur(x: Double, y: Double)
    /// Moved by whole pixels (truncated toward zero in device space, as resvg).
    case offset(dx: Double, dy: Double)
    /// Filled with a colour (straight alpha, opacity applied).
    case flood(Color)
    /// The inputs stacked source-over, the first at the bottom.
    case merge
    /// The first input over the second, blended.
    case blend(FilterBlendMode)
    /// Porter-Duff or arithmetic, the first input as source, the second as destination.
    case composite(FilterComposite)
    /// 20 numbers on unpremultiplied colour in 0…1, row by row (r' = m0·r + m1·g + m2·b + m3·a + m4).
    case colorMatrix([Double])
    /// Red, green, blue and alpha transfer functions on unpremultiplied colour.
    case componentTransfer([TransferFunction])
    /// The input over its blurred, offset, flooded alpha.
    case dropShadow(dx: Double, dy: Double, sigmaX: Double, sigmaY: Double, color: Color)
    /// The minimum (erode) or maximum (dilate) of each channel over a (2rx+1)×(2ry+1) window.
    case morphology(dilate: Bool, radiusX: Double, radiusY: Double)
    /// The input's subregion repeated over the whole subregion.
    case tile
    /// Perlin turbulence or fractal noise.
    case turbulence(Turbulence)
    /// A convolution kernel over device pixels.
    case convolveMatrix(ConvolveMatrix)
    /// The first input's pixels moved by channels of the second's, times `scale`.
    case displacementMap(scaleX: Double, scaleY: Double, xChannel: Int, yChannel: Int)
    /// Diffuse or specular lighting of the input's alpha as a height map.
    case lighting(Lighting)
    /// A picture the clip decodes like a layer's `contents` (SVG's `feImage` of an embedded picture),
    /// named as the contents are; `place` maps its pixels (pixel (i, j) the unit square at i, j) into
    /// the filter's space.
    case image(name: String, place: Transform2D)

    func mapped(by t: Transform2D, sx: Double, sy: Double) -> FilterOperation {
        switch self {
        case .gaussianBlur(let x, let y): return .gaussianBlur(x: x * sx, y: y * sy)
        case .offset(let dx, let dy): return .offset(dx: dx * sx, dy: dy * sy)
        case .dropShadow(let dx, let dy, let x, let y, let c):
            return .dropShadow(dx: dx * sx, dy: dy * sy, sigmaX: x * sx, sigmaY: y * sy, color: c)
        case .morphology(let dilate, let rx, let ry): return .morphology(dilate: dilate, radiusX: rx * sx, radiusY: ry * sy)
        case .displacementMap(let x, let y, let cx, let cy):
            return .displacementMap(scaleX: x * sx, scaleY: y * sy, xChannel: cx, yChannel: cy)
        case .turbulence(var n):
            n.toDevice = n.toDevice.concatenating(t)
            return .turbulence(n)
        case .lighting(var l):
            l.light = l.light.mapped(by: t, sx: sx, sy: sy)
            return .lighting(l)
        case .image(let name, let place): return .image(name: name, place: place.concatenating(t))
        case .flood, .merge, .blend, .composite, .colorMatrix, .componentTransfer, .tile, .convolveMatrix:
            return self
        }
    }
}

/// feBlend's modes (CSS's blend modes).
public enum FilterBlendMode: String, Sendable, Hashable, CaseIterable {
    case normal, multiply, screen, overlay, darken, lighten
    case colorDodge = "color-dodge"
    case colorBurn = "color-burn"
    case hardLight = "hard-light"
    case softLight = "soft-light"
    case difference, exclusion, hue, saturation, color, luminosity
}

/// feComposite's operators.
public enum FilterComposite: Sendable, Hashable {
    case over, `in`, out, atop, xor
    /// k1·i1·i2 + k2·i1 + k3·i2 + k4 on premultiplied channels in 0…1, clamped.
    case arithmetic(k1: Double, k2: Double, k3: Double, k4: Double)
}

/// One channel's function in feComponentTransfer, on a value in 0…1.
public enum TransferFunction: Sendable, Hashable {
    case identity
    /// Piecewise linear through the values, evenly spaced.
    case table([Double])
    /// Steps of the values, evenly spaced.
    case discrete([Double])
    case linear(slope: Double, intercept: Double)
    case gamma(amplitude: Double, exponent: Double, offset: Double)
}

/// feTurbulence's parameters; the noise is a function of the filter space's coordinates, read at
/// each device pixel's centre through the inverse of `toDevice`.
public struct Turbulence: Sendable, Hashable {
    public var baseFrequencyX: Double
    public var baseFrequencyY: Double
    public var octaves: Int
    public var seed: Double
    public var stitchTiles: Bool
    public var fractalNoise: Bool
    /// From the filter's space to where it is evaluated (identity until `mapped(by:)`).
    public var toDevice: Transform2D = .identity
    /// The tile stitched when `stitchTiles` (the primitive's subregion in the filter's space).
    public var tile: Rect

    public init(
        baseFrequencyX: Double, baseFrequencyY: Double, octaves: Int, seed: Double, stitchTiles: Bool,
        fractalNoise: Bool, tile: Rect
    ) {
        self.baseFrequencyX = baseFrequencyX
        self.baseFrequencyY = baseFrequencyY
        self.octaves = octaves
        self.seed = seed
        self.stitchTiles = stitchTiles
        self.fractalNoise = fractalNoise
        self.tile = tile
    }
}

/// feConvolveMatrix's parameters (device pixels: `kernelUnitLength` is not followed, as resvg).
public struct ConvolveMatrix: Sendable, Hashable {
    public enum EdgeMode: Sendable, Hashable { case duplicate, wrap, none }
    public var columns: Int
    public var rows: Int
    /// `columns` × `rows` numbers, row by row, as written (the kernel is applied rotated 180°, as the
    /// specification's formula reads it).
    public var kernel: [Double]
    public var divisor: Double
    public var bias: Double
    public var targetX: Int
    public var targetY: Int
    public var edgeMode: EdgeMode
    public var preserveAlpha: Bool

    public init(
        columns: Int, rows: Int, kernel: [Double], divisor: Double, bias: Double, targetX: Int, targetY: Int,
        edgeMode: EdgeMode, preserveAlpha: Bool
    ) {
        self.columns = columns
        self.rows = rows
        self.kernel = kernel
        self.divisor = divisor
        self.bias = bias
        self.targetX = targetX
        self.targetY = targetY
        self.edgeMode = edgeMode
        self.preserveAlpha = preserveAlpha
    }
}

/// feDiffuseLighting and feSpecularLighting.
public struct Lighting: Sendable, Hashable {
    public enum Light: Sendable, Hashable {
        /// Degrees.
        case distant(azimuth: Double, elevation: Double)
        case point(x: Double, y: Double, z: Double)
        case spot(
            x: Double, y: Double, z: Double, pointsAtX: Double, pointsAtY: Double, pointsAtZ: Double,
            specularExponent: Double, limitingConeAngle: Double?)

        /// Positions carried by `t`; heights scaled by the mean stretch (√((sx² + sy²)/2)), as resvg.
        func mapped(by t: Transform2D, sx: Double, sy: Double) -> Light {
            let sz = ((sx * sx + sy * sy) / 2).squareRoot()
            switch self {
            case .distant: return self
            case .point(let x, let y, let z):
                let p = t.apply(Point(x: x, y: y))
                return .point(x: p.x, y: p.y, z: z * sz)
            case .spot(let x, let y, let z, let px, let py, let pz, let e, let cone):
                let p = t.apply(Point(x: x, y: y)), q = t.apply(Point(x: px, y: py))
                return .spot(
                    x: p.x, y: p.y, z: z * sz, pointsAtX: q.x, pointsAtY: q.y, pointsAtZ: pz * sz, specularExponent: e,
                    limitingConeAngle: cone)
            }
        }
    }

    /// Specular (with its exponent) rather than diffuse.
    public var specular: Bool
    public var surfaceScale: Double
    /// kd for diffuse, ks for specular.
    public var constant: Double
    public var specularExponent: Double
    /// Straight sRGB.
    public var color: Color
    public var light: Light

    public init(
        specular: Bool, surfaceScale: Double, constant: Double, specularExponent: Double, color: Color, light: Light
    ) {
        self.specular = specular
        self.surfaceScale = surfaceScale
        self.constant = constant
        self.specularExponent = specularExponent
        self.color = color
        self.light = light
    }
}
