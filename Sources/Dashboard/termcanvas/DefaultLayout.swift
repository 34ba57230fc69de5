import CanvasCore

/// The layout a first start shows when even the preset files cannot be found;
/// `layouts/default.yaml` holds the same (a test keeps them equal).
enum DefaultLayout {
    static func make() -> LayoutData {
        LayoutData(name: "default", panes: [
            Pane(id: 1, app: .todo, frame: Rect(x: 0, y: 7, width: 5, height: 5)),
            Pane(id: 2, app: .calendar, frame: Rect(x: 0, y: 0, width: 5, height: 7)),
            Pane(id: 3, app: .chat, frame: Rect(x: 5, y: 0, width: 7, height: 12)),
        ], focused: 1)
    }
}
