/// A snapshot's top-level layers: the still ones shared by every snapshot, the moving ones this frame's.

/// The top-level layers of a snapshot, in order, read in place. A scene sampled by
/// `RetainedPresentation` shares one array of its still top-level layers between all its snapshots and
/// presents only the moving ones each frame: a 1080p GIF of 2,000 still shapes and one moving dot had
/// copied the 2,000 presentations (1.4 KB each, a dozen references) into every frame's array and freed
/// them again, a quarter of what the shapes added to the dot's time.
package struct PresentedLayers: RandomAccessCollection, Sendable {
    /// Every layer at its index, except where `slots` sends the index to `moving`.
    @usableFromInline let shared: [PresentationLayer]
    /// Empty (every layer is in `shared`), or one per layer: −1 where `shared` holds it, else its index in
    /// `moving`.
    @usableFromInline let slots: [Int32]
    @usableFromInline let moving: [PresentationLayer]
    /// With `slots`: the zPosition every still layer has, when they all have the same (nil: they differ),
    /// worked out once for every snapshot that shares them.
    package let stillZPosition: Double?
    /// With `slots`: the moving layers' indices, in order.
    package let movingIndices: [Int]

    package init(_ layers: [PresentationLayer]) {
        shared = layers
        slots = []
        moving = []
        stillZPosition = nil
        movingIndices = []
    }

    /// `shared` holds a stand-in (never read) wherever `slots` names a moving layer.
    init(
        shared: [PresentationLayer], slots: [Int32], moving: [PresentationLayer], movingIndices: [Int],
        stillZPosition: Double?
    ) {
        self.shared = shared
        self.slots = slots
        self.moving = moving
        self.movingIndices = movingIndices
        self.stillZPosition = stillZPosition
    }

    @inlinable package var startIndex: Int { 0 }
    @inlinable package var endIndex: Int { shared.count }

    /// A copy of the layer. Code run every frame reads what it needs through `retained(at:)`,
    /// `zPosition(at:)` and `withLayer(at:_:)`: a subscript that yields an array's element reads it with
    /// the array's getter, a copy (1.4 KB and a dozen references) for each read.
    package subscript(i: Int) -> PresentationLayer {
        slots.isEmpty || slots[i] < 0 ? shared[i] : moving[Int(slots[i])]
    }

    @inlinable package func retained(at i: Int) -> RetainedID? {
        slots.isEmpty || slots[i] < 0 ? shared[i].retained : moving[Int(slots[i])].retained
    }

    @inlinable package func zPosition(at i: Int) -> Double {
        slots.isEmpty || slots[i] < 0 ? shared[i].properties.zPosition : moving[Int(slots[i])].properties.zPosition
    }

    /// `body` with the layer, read in place.
    @inlinable package func withLayer<R>(at i: Int, _ body: (PresentationLayer) throws -> R) rethrows -> R {
        if slots.isEmpty || slots[i] < 0 { return try body(shared[i]) }
        return try body(moving[Int(slots[i])])
    }

    /// The layers as one array (a copy of each, unless they are all in the shared one).
    package var array: [PresentationLayer] { slots.isEmpty ? shared : Array(self) }
}
