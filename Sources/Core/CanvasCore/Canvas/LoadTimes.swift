/// How long a start took to show its content, as the user saw it: `canvasLoadTime`, from the
/// process's start to the first frame on the screen in which every pane shows its content, and
/// each pane's `microAppLoadTime`, from its mount to the first frame that shows its content.
public struct LoadTimes: Hashable, Sendable {
    public struct Pane: Hashable, Sendable {
        public let app: AppKind
        public let microAppLoadTime: Duration

        public init(app: AppKind, microAppLoadTime: Duration) {
            self.app = app
            self.microAppLoadTime = microAppLoadTime
        }
    }

    public let layout: String
    public let canvasLoadTime: Duration
    public let panes: [Pane]

    public init(layout: String, canvasLoadTime: Duration, panes: [Pane]) {
        self.layout = layout
        self.canvasLoadTime = canvasLoadTime
        self.panes = panes
    }
}
