/// A layer's `filters` read from a scene file: each a Core Image filter by type, with its name and inputs.
import ReelAnimation
import ReelDocument

extension Reader {
    /// `filters: [{type: gaussianBlur, name: blur, inputRadius: 12}, …]`, in the order they apply.
    func filters(_ node: JSONNode, _ path: String) throws(SceneError) -> [LayerFilter] {
        let items = try array(node, path)
        guard items.count <= Scene.maximumFilters else {
            throw fail(
                node, path, "\(items.count) filters on one layer; at most \(Scene.maximumFilters) are drawn",
                fix: "combine colour filters into one colorMatrix, or put some on a superlayer")
        }
        var out: [LayerFilter] = []
        for (i, item) in items.enumerated() {
            let p = "\(path)[\(i)]"
            guard case .object(let list) = item.value, let typeNode = list.first(where: { $0.key == "type" })?.value else {
                throw fail(
                    item, p, "a filter needs a \"type\"",
                    fix: "give one of \(LayerFilter.FilterType.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            let type = try choice(typeNode, join(p, "type"), LayerFilter.FilterType.self)
            let m = try members(item, p, known: ["type", "name"] + type.inputs.map(\.rawValue), what: "a \(type) filter")
            var filter = LayerFilter(type, name: try m["name"].map { n throws(SceneError) in try string(n, join(p, "name")) })
            guard !filter.name.isEmpty, !filter.name.contains(".") else {
                throw fail(
                    m["name"] ?? item, join(p, "name"),
                    "a filter's name is the middle of its key paths and cannot be empty or hold a dot",
                    fix: "name it with letters and digits, as \"blur\"")
            }
            guard !out.contains(where: { $0.name == filter.name }) else {
                throw fail(
                    m["name"] ?? typeNode, join(p, "name"), "another filter of this layer is already named \"\(filter.name)\"",
                    fix: "give each filter of a layer its own \"name\": key paths find a filter by it")
            }
            for input in type.inputs {
                guard let n = m[input.rawValue] else { continue }
                let ip = join(p, input.rawValue)
                let value: AnimatableValue
                if input.isVector {
                    let v = try components(n, ip, names: ["x", "y", "z", "w"], what: "a vector", example: "[1, 0, 0, 0]")
                    for (k, x) in v.enumerated() { _ = try finite(x, n, "\(ip)[\(k)]") }
                    value = .numbers(v)
                } else {
                    let v = try finite(try number(n, ip), n, ip)
                    if input == .inputRadius {
                        guard v >= 0, v <= Scene.maximumFilterRadius else {
                            throw fail(
                                n, ip, "inputRadius \(v) is outside 0…\(Int(Scene.maximumFilterRadius)) points",
                                fix: "a blur that wide spreads the layer to nothing: use a smaller radius")
                        }
                    }
                    value = .number(v)
                }
                input.set(value, on: &filter)
            }
            out.append(filter)
        }
        return out
    }

    /// A layer's animations of `filters.<name>.<input>` must name one of its filters, of a type that
    /// takes that input.
    func checkFilterKeyPaths(_ layer: Layer, _ node: JSONNode, _ path: String) throws(SceneError) {
        for (i, a) in layer.attachedAnimations.enumerated() {
            for keyPath in Self.keyPaths(of: a.animation) {
                try checkFilterKeyPath(keyPath, of: layer, node, "\(join(path, "animations"))[\(i)].keyPath")
            }
        }
    }

    /// A `filters.<name>.<input>` (or `backgroundFilters.…`) key path must name one of the layer's
    /// filters in that list, of a type that takes that input; other key paths pass.
    func checkFilterKeyPath(_ keyPath: String, of layer: Layer, _ node: JSONNode, _ path: String) throws(SceneError) {
        guard let f = FilterKeyPath(rawValue: keyPath) else { return }
        let list = f.list.get(layer.properties)
        guard let filter = list.first(where: { $0.name == f.name }) else {
            let names = list.map(\.name)
            throw fail(
                node, path, "\"\(keyPath)\" names a filter \"\(f.name)\" that layer \"\(layer.name)\" does not have",
                fix: names.isEmpty
                    ? "add it to the layer's \"\(f.list.rawValue)\""
                    : "the layer's \(f.list.rawValue) are \(names.joined(separator: ", "))")
        }
        guard filter.type.inputs.contains(f.input) else {
            throw fail(
                node, path, "a \(filter.type) filter has no \(f.input.rawValue)",
                fix: filter.type.inputs.isEmpty
                    ? "\(filter.type) has no inputs to animate"
                    : "it takes \(filter.type.inputs.map(\.rawValue).joined(separator: ", "))")
        }
    }

    /// The key paths an animation animates: a group's, its children's.
    static func keyPaths(of a: Animation) -> [String] {
        if case .group(let g) = a { return g.animations.flatMap(keyPaths) }
        return [a.keyPath]
    }
}
