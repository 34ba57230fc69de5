import CanvasCore

/// The shared canvas the host has open: its copy (the server's layout and this dashboard's edits
/// not answered yet) and this user's undo, which takes back their own edits and no one else's.
public struct SharedCanvasState: Sendable, Equatable {
    public internal(set) var copy: SharedCanvasCopy
    /// Each undoable step as the operations that take it back, last step last.
    var undo: [[CanvasOperation]] = []
    var redo: [[CanvasOperation]] = []

    public init(copy: SharedCanvasCopy) {
        self.copy = copy
    }

    var mayEdit: Bool { copy.role.mayEdit }

    /// What the status bar says after the canvas's name.
    var badge: String {
        switch copy.role {
        case .owner: "shared"
        case .editor: "shared by \(copy.owner)"
        case .viewer: "read-only, shared by \(copy.owner)"
        }
    }

    /// Why this user cannot arrange the canvas, for a viewer's arrange keys.
    var readOnlyReason: String {
        "Read-only: \(copy.owner) shared \(copy.name) with you as a viewer; ask them to make you an editor"
    }

    /// Pane `old` is called `new` now (the server numbered a pane this copy added).
    mutating func rename(_ old: PaneID, to new: PaneID) {
        undo = undo.map { $0.map { $0.renaming(old, to: new) } }
        redo = redo.map { $0.map { $0.renaming(old, to: new) } }
    }

    /// How many steps undo and redo keep.
    static let undoLimit = 100
}
