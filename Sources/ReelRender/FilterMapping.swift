/// A layer's Core Image filters as the raster's picture filters: blurs in device pixels, colour filters
/// as matrices.
import ReelGeometry
import ReelRaster
import ReelScene

extension SceneRenderer {
    /// The picture filters of `filters` on a layer drawn by `toDevice`; those that change nothing (a
    /// zero radius, an identity) are left out. Consecutive colour filters are one matrix, clamped once
    /// (Core Image clamps only what it writes out too, as its working colours are floats).
    static func pictureFilters(
        _ filters: [LayerFilter], effects: [FilterEffect] = [], toDevice: Transform2D, visible: Rect? = nil,
        images: [String: RasterImage] = [:]
    ) -> [PictureFilter] {
        var out: [PictureFilter] = effects.map { e in
            // The pictures its image primitives name, from the clip's decoded contents.
            var named: [String: RasterImage] = [:]
            for name in e.imageNames { named[name] = images[name] }
            return .effect(effectInDevice(e, toDevice: toDevice, visible: visible), images: named)
        }
        var pending: ColorMatrix?
        func flush() {
            if let m = pending, m != .identity { out.append(.colorMatrix(m)) }
            pending = nil
        }
        for f in filters {
            if f.type == .gaussianBlur {
                flush()
                // σ = inputRadius points (UNCONFIRMED: Core Image documents the radius as the blur's
                // standard deviation), scaled as the layer is drawn, as shadows are.
                let sigma = max(f.inputRadius, 0) * toDevice.maxScale
                if sigma > 0 { out.append(.blur(sigma: sigma)) }
                continue
            }
            let m = matrix(f)
            pending = pending.map { m.after($0) } ?? m
        }
        flush()
        return out
    }

    /// An SVG filter in device pixels, its region held to the frame and half the frame's size around it
    /// (what lies further out of the frame reaches it only through long offsets or tiles): its pixels,
    /// evaluated at once, are memory the frame holds. resvg holds it to twice the canvas's size around.
    static func effectInDevice(_ e: FilterEffect, toDevice: Transform2D, visible: Rect?) -> FilterEffect {
        var d = e.mapped(by: toDevice)
        guard let v = visible else { return d }
        let mx = v.width / 2, my = v.height / 2
        let x0 = max(d.region.minX, v.minX - mx), y0 = max(d.region.minY, v.minY - my)
        let x1 = min(d.region.maxX, v.maxX + mx), y1 = min(d.region.maxY, v.maxY + my)
        d.region = Rect(x: x0, y: y0, width: max(x1 - x0, 0), height: max(y1 - y0, 0))
        return d
    }

    /// A colour filter's matrix on unpremultiplied colour.
    static func matrix(_ f: LayerFilter) -> ColorMatrix {
        switch f.type {
        case .gaussianBlur:
            return .identity
        case .colorMatrix:
            let rows = [f.inputRVector, f.inputGVector, f.inputBVector, f.inputAVector]
            return ColorMatrix((0..<4).flatMap { r in rows[r] + [f.inputBiasVector[r]] })
        case .colorControls:
            return colorControls(saturation: f.inputSaturation, brightness: f.inputBrightness, contrast: f.inputContrast)
        case .colorInvert:
            return ColorMatrix([-1, 0, 0, 0, 1, 0, -1, 0, 0, 1, 0, 0, -1, 0, 1, 0, 0, 0, 1, 0])
        case .sepiaTone:
            return sepia(f.inputIntensity)
        }
    }

    /// `CIColorControls` (UNCONFIRMED: Core Image does not publish its kernel; this is the form its
    /// documentation describes): saturation mixes each colour with its luminance (Rec. 709 weights),
    /// brightness adds, contrast scales about mid-grey.
    static func colorControls(saturation s: Double, brightness b: Double, contrast c: Double) -> ColorMatrix {
        let (lr, lg, lb) = (0.2125, 0.7154, 0.0721)
        var v: [Double] = []
        for row in 0..<3 {
            var coefficients = [(1 - s) * lr, (1 - s) * lg, (1 - s) * lb].map { $0 * c }
            coefficients[row] += s * c
            v += coefficients + [0, (b - 0.5) * c + 0.5]
        }
        return ColorMatrix(v + [0, 0, 0, 1, 0])
    }

    /// Sepia by `amount` (0 … 1), the matrix of the Filter Effects spec's `sepia()`, which `CISepiaTone`
    /// approximates (UNCONFIRMED: Core Image's own tone is not published).
    static func sepia(_ amount: Double) -> ColorMatrix {
        let a = 1 - min(max(amount, 0), 1)
        return ColorMatrix([
            0.393 + 0.607 * a, 0.769 - 0.769 * a, 0.189 - 0.189 * a, 0, 0,
            0.349 - 0.349 * a, 0.686 + 0.314 * a, 0.168 - 0.168 * a, 0, 0,
            0.272 - 0.272 * a, 0.534 - 0.534 * a, 0.131 + 0.869 * a, 0, 0,
            0, 0, 0, 1, 0,
        ])
    }
}
