/// Layer filters (`CALayer.filters`, `backgroundFilters`): Core Image's filters by name with their
/// inputs, and the key paths that animate those inputs (`filters.blur.inputRadius`).
import ReelAnimation
import ReelGeometry

/// A Core Image filter on a layer, named as Core Image names it without the `CI` prefix, with the
/// inputs of its type at Core Image's defaults.
public struct LayerFilter: Sendable, Equatable {
    public enum FilterType: String, Sendable, CaseIterable {
        /// `CIGaussianBlur`: a Gaussian of σ = `inputRadius` points.
        case gaussianBlur
        /// `CIColorMatrix`: the four vectors and the bias on unpremultiplied colour.
        case colorMatrix
        /// `CIColorControls`: saturation, brightness and contrast.
        case colorControls
        /// `CIColorInvert`: each colour channel becomes one minus itself.
        case colorInvert
        /// `CISepiaTone`: toward sepia by `inputIntensity`.
        case sepiaTone

        /// The inputs a filter of this type takes.
        public var inputs: [FilterInput] {
            switch self {
            case .gaussianBlur: [.inputRadius]
            case .colorMatrix: [.inputRVector, .inputGVector, .inputBVector, .inputAVector, .inputBiasVector]
            case .colorControls: [.inputSaturation, .inputBrightness, .inputContrast]
            case .colorInvert: []
            case .sepiaTone: [.inputIntensity]
            }
        }
    }

    public var type: FilterType
    /// What key paths call it (`filters.<name>.<input>`): the type's name unless given.
    public var name: String
    public var inputRadius = 10.0
    public var inputSaturation = 1.0
    public var inputBrightness = 0.0
    public var inputContrast = 1.0
    public var inputIntensity = 1.0
    public var inputRVector: [Double] = [1, 0, 0, 0]
    public var inputGVector: [Double] = [0, 1, 0, 0]
    public var inputBVector: [Double] = [0, 0, 1, 0]
    public var inputAVector: [Double] = [0, 0, 0, 1]
    public var inputBiasVector: [Double] = [0, 0, 0, 0]

    public init(_ type: FilterType, name: String? = nil) {
        self.type = type
        self.name = name ?? type.rawValue
    }
}

/// An input of a layer filter: a number, or a vector of four numbers.
public enum FilterInput: String, Sendable, CaseIterable {
    case inputRadius, inputSaturation, inputBrightness, inputContrast, inputIntensity
    case inputRVector, inputGVector, inputBVector, inputAVector, inputBiasVector

    public var isVector: Bool {
        switch self {
        case .inputRVector, .inputGVector, .inputBVector, .inputAVector, .inputBiasVector: true
        default: false
        }
    }

    public func get(_ f: LayerFilter) -> AnimatableValue {
        switch self {
        case .inputRadius: .number(f.inputRadius)
        case .inputSaturation: .number(f.inputSaturation)
        case .inputBrightness: .number(f.inputBrightness)
        case .inputContrast: .number(f.inputContrast)
        case .inputIntensity: .number(f.inputIntensity)
        case .inputRVector: .numbers(f.inputRVector)
        case .inputGVector: .numbers(f.inputGVector)
        case .inputBVector: .numbers(f.inputBVector)
        case .inputAVector: .numbers(f.inputAVector)
        case .inputBiasVector: .numbers(f.inputBiasVector)
        }
    }

    /// A value of another type, or a vector of another length than four, is ignored. A radius is held
    /// to 0 … `Scene.maximumFilterRadius` (an animation may overshoot).
    public func set(_ value: AnimatableValue, on f: inout LayerFilter) {
        switch (self, value) {
        case (.inputRadius, .number(let v)): f.inputRadius = min(max(v, 0), Scene.maximumFilterRadius)
        case (.inputSaturation, .number(let v)): f.inputSaturation = v
        case (.inputBrightness, .number(let v)): f.inputBrightness = v
        case (.inputContrast, .number(let v)): f.inputContrast = v
        case (.inputIntensity, .number(let v)): f.inputIntensity = v
        case (.inputRVector, .numbers(let v)) where v.count == 4: f.inputRVector = v
        case (.inputGVector, .numbers(let v)) where v.count == 4: f.inputGVector = v
        case (.inputBVector, .numbers(let v)) where v.count == 4: f.inputBVector = v
        case (.inputAVector, .numbers(let v)) where v.count == 4: f.inputAVector = v
        case (.inputBiasVector, .numbers(let v)) where v.count == 4: f.inputBiasVector = v
        default: break
        }
    }
}

/// `filters.<name>.<input>` or `backgroundFilters.<name>.<input>`: an input of the layer's filter of
/// that name in that list, as Core Animation's key paths reach it.
public struct FilterKeyPath: Sendable, Hashable {
    /// Which of a layer's lists of filters.
    public enum List: String, Sendable, CaseIterable {
        case filters, backgroundFilters

        public func get(_ values: LayerProperties) -> [LayerFilter] {
            self == .filters ? values.filters : values.backgroundFilters
        }
    }

    public var list: List
    public var name: String
    public var input: FilterInput

    public init(_ list: List = .filters, name: String, input: FilterInput) {
        self.list = list
        self.name = name
        self.input = input
    }

    /// Nil unless the string is a list's name, a dot, a name, a dot and an input's name.
    public init?(rawValue: String) {
        guard let first = rawValue.firstIndex(of: "."), let list = List(rawValue: String(rawValue[..<first])),
            let dot = rawValue.lastIndex(of: "."), dot > first
        else { return nil }
        let name = rawValue[rawValue.index(after: first)..<dot]
        guard !name.isEmpty, let input = FilterInput(rawValue: String(rawValue[rawValue.index(after: dot)...])) else {
            return nil
        }
        self.init(list, name: String(name), input: input)
    }

    public var rawValue: String { "\(list.rawValue).\(name).\(input.rawValue)" }

    public var valueType: LayerKeyPath.ValueType { input.isVector ? .numbers : .number }

    /// The input of the first filter of the name; a layer without one reads the input's default.
    public func get(_ values: LayerProperties) -> AnimatableValue {
        input.get(list.get(values).first { $0.name == name } ?? LayerFilter(.colorMatrix))
    }

    public func set(_ value: AnimatableValue, on values: inout LayerProperties) {
        switch list {
        case .filters:
            guard let i = values.filters.firstIndex(where: { $0.name == name }) else { return }
            input.set(value, on: &values.filters[i])
        case .backgroundFilters:
            guard let i = values.backgroundFilters.firstIndex(where: { $0.name == name }) else { return }
            input.set(value, on: &values.backgroundFilters[i])
        }
    }
}

/// A key path an animation or a timeline action names: a layer property's, or an input of one of the
/// layer's filters.
public enum AnimatedKeyPath: Sendable, Hashable {
    case property(LayerKeyPath)
    case filter(FilterKeyPath)

    public init?(rawValue: String) {
        if let p = LayerKeyPath(rawValue: rawValue) {
            self = .property(p)
        } else if let f = FilterKeyPath(rawValue: rawValue) {
            self = .filter(f)
        } else {
            return nil
        }
    }

    public var rawValue: String {
        switch self {
        case .property(let p): p.rawValue
        case .filter(let f): f.rawValue
        }
    }

    public var valueType: LayerKeyPath.ValueType {
        switch self {
        case .property(let p): p.valueType
        case .filter(let f): f.valueType
        }
    }

    public func get(_ values: LayerProperties) -> AnimatableValue {
        switch self {
        case .property(let p): p.get(values)
        case .filter(let f): f.get(values)
        }
    }

    public func set(_ value: AnimatableValue, on values: inout LayerProperties) {
        switch self {
        case .property(let p): p.set(value, on: &values)
        case .filter(let f): f.set(value, on: &values)
        }
    }

    /// The model value.
    public func get(_ layer: Layer) -> AnimatableValue { get(layer.properties) }

    /// The value on screen.
    public func get(_ layer: PresentationLayer) -> AnimatableValue { get(layer.properties) }

    /// Sets the model value; a value of the wrong type is ignored.
    public func set(_ value: AnimatableValue, on layer: inout Layer) { set(value, on: &layer.properties) }
}
