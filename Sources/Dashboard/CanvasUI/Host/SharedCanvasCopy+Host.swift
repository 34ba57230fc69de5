import CanvasCore

/// What the host says of the shared canvas open.
extension SharedCanvasCopy {
    var mayEdit: Bool { role.mayEdit }

    /// What the status bar says after the canvas's name.
    var badge: String {
        switch role {
        case .owner: "shared"
        case .editor: "shared by \(owner)"
        case .viewer: "read-only, shared by \(owner)"
        }
    }

    /// Why this user cannot arrange the canvas, for a viewer's arrange keys.
    var readOnlyReason: String {
        "Read-only: \(owner) shared \(name) with you as a viewer; ask them to make you an editor"
    }
}
