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

    /// The badge, and the edits made here that the server has not taken yet (while it is down,
    /// they are kept and sent when it is back): `shared · 2 unsent`.
    var statusBadge: String {
        badge + (replica.pending.isEmpty ? "" : " · \(replica.pending.count) unsent")
    }

    /// Why this user cannot arrange the canvas, for a viewer's arrange keys.
    var readOnlyReason: String {
        "Read-only: \(owner) shared \(name) with you as a viewer; ask them to make you an editor"
    }
}
