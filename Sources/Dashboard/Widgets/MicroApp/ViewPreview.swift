import CanvasCore
import CanvasStyle
import CanvasUI
import MicroAppProtocol

/// A micro-app's view drawn as its pane would draw it, as text: the preview of an app before it
/// is installed.
public enum ViewPreview {
    public static func lines(_ view: ViewUpdate, size: Size, theme: Theme = .dark) -> [String] {
        var buffer = Buffer(size: size)
        ViewRenderer(theme: theme, focused: true, inputs: [:]).draw(view.root, in: buffer.bounds, into: &buffer)
        return buffer.text.components(separatedBy: "\n")
    }
}
