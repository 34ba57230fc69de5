extension LayoutData {
    /// The layout without pane `id`, its room taken back by its neighbours as tmux and zellij
    /// do: the panes along one of its sides grow over it when together they span that side
    /// exactly (none reaching past it). Of the sides that can, the one with the fewest panes
    /// wins, then left, above, right, below. Where no side can, the room stays free for the
    /// next pane. Focus is left to the caller.
    ///
    /// - Parameter refill: false keeps the room free (what a removal meant before neighbours
    ///   took it back; shared canvases replay such removals as they were made).
    public func removing(_ id: PaneID, refill: Bool = true) throws(CanvasError) -> LayoutData {
        guard let index = panes.firstIndex(where: { $0.id == id }) else { throw .unknownPane(id) }
        let room = panes[index].frame
        var next = self
        next.panes.remove(at: index)
        guard refill else { return next }
        let sides = Direction.refillOrder.compactMap { side in next.neighbours(filling: room, from: side).map { (side, $0) } }
        guard let (side, neighbours) = sides.min(by: { $0.1.count < $1.1.count }) else { return next }
        for neighbour in neighbours {
            next.panes[neighbour].frame = next.panes[neighbour].frame.grown(over: room, from: side)
        }
        return next
    }

    /// The layout with `pane` placed at its frame, the panes it lands on giving up that room:
    /// each keeps what lies outside the frame when that is one rectangle of at least the grid's
    /// minimum size (the frame takes a whole strip off one of its sides). What undoing a removal
    /// needs on a shared canvas, where the neighbours that took the room give it back.
    /// - Throws: `.overlap` when a pane it lands on would be split in two or covered,
    ///   `.neighbourAtMinimum` when what it keeps would be too small.
    public func placing(_ pane: Pane) throws(CanvasError) -> LayoutData {
        var next = self
        for index in panes.indices where panes[index].frame.intersects(pane.frame) {
            guard let kept = panes[index].frame.remainder(outside: pane.frame) else { throw .overlap(pane.id, panes[index].id) }
            guard kept.size.contains(grid.minimumPaneSize) else { throw .neighbourAtMinimum(panes[index].id) }
            next.panes[index].frame = kept
        }
        next.panes.append(pane)
        return next
    }

    /// The indices of the panes touching `room` on `side` when they span that side exactly.
    private func neighbours(filling room: Rect, from side: Direction) -> [Int]? {
        let touching = panes.indices.filter { index in
            let frame = panes[index].frame
            switch side {
            case .left: return frame.maxX == room.minX && frame.minY < room.maxY && frame.maxY > room.minY
            case .right: return frame.minX == room.maxX && frame.minY < room.maxY && frame.maxY > room.minY
            case .up: return frame.maxY == room.minY && frame.minX < room.maxX && frame.maxX > room.minX
            case .down: return frame.minY == room.maxY && frame.minX < room.maxX && frame.maxX > room.minX
            }
        }
        let spans = touching.map { index in
            side.isHorizontal ? (panes[index].frame.minY, panes[index].frame.maxY) : (panes[index].frame.minX, panes[index].frame.maxX)
        }
        let (start, end) = side.isHorizontal ? (room.minY, room.maxY) : (room.minX, room.maxX)
        // Panes never overlap, so spans inside the side that add up to its length cover it.
        guard !touching.isEmpty, spans.allSatisfy({ $0.0 >= start && $0.1 <= end }),
              spans.reduce(0, { $0 + $1.1 - $1.0 }) == end - start
        else { return nil }
        return touching
    }
}

extension Direction {
    /// The order in which a removed pane's sides are tried, as tmux gives the room to the pane
    /// before it first.
    static let refillOrder: [Direction] = [.left, .up, .right, .down]
}

extension Rect {
    /// This neighbour of `room`, lying on the room's `side`, grown across it: a pane on the
    /// room's left grows rightwards over it.
    func grown(over room: Rect, from side: Direction) -> Rect {
        switch side {
        case .left: Rect(x: minX, y: minY, width: room.maxX - minX, height: height)
        case .right: Rect(x: room.minX, y: minY, width: maxX - room.minX, height: height)
        case .up: Rect(x: minX, y: minY, width: width, height: room.maxY - minY)
        case .down: Rect(x: minX, y: room.minY, width: width, height: maxY - room.minY)
        }
    }

    /// What of this rectangle lies outside `other`, when that is one rectangle: `other` covers a
    /// whole strip along one side. Nil when it would split this in two, or cover it.
    func remainder(outside other: Rect) -> Rect? {
        let overlap = intersection(other)
        guard !overlap.isEmpty else { return self }
        if overlap.minY == minY, overlap.maxY == maxY {
            if overlap.minX == minX, overlap.maxX < maxX { return Rect(x: overlap.maxX, y: minY, width: maxX - overlap.maxX, height: height) }
            if overlap.maxX == maxX, overlap.minX > minX { return Rect(x: minX, y: minY, width: overlap.minX - minX, height: height) }
        }
        if overlap.minX == minX, overlap.maxX == maxX {
            if overlap.minY == minY, overlap.maxY < maxY { return Rect(x: minX, y: overlap.maxY, width: width, height: maxY - overlap.maxY) }
            if overlap.maxY == maxY, overlap.minY > minY { return Rect(x: minX, y: minY, width: width, height: overlap.minY - minY) }
        }
        return nil
    }
}
