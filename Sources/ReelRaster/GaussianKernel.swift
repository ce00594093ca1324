/// Shadow blur kernels: the Gaussian sampled per pixel, and the largest blur drawn.
import Foundation

/// The largest shadow blur drawn, as a Gaussian's σ in device pixels; larger ones are drawn at it.
public let maximumShadowSigma = 256.0

/// A normalised Gaussian of standard deviation `sigma`, sampled by the exact integral of the density
/// over each pixel (so small sigmas keep their shape), out to 3σ.
func gaussianKernel(sigma: Double) -> [Float] {
    guard sigma > 0.05 else { return [1] }
    let radius = Int((3 * sigma).rounded(.up))
    func cdf(_ x: Double) -> Double { 0.5 * (1 + erf(x / (sigma * 2.0.squareRoot()))) }
    var k = (-radius...radius).map { i in cdf(Double(i) + 0.5) - cdf(Double(i) - 0.5) }
    let sum = k.reduce(0, +)
    k = k.map { $0 / sum }
    return k.map(Float.init)
}
