/// Something a widget asks of what serves it outside the canvas, e.g. a micro-app's command to
/// the sync engine. The canvas hands it on unread, to the handler the dashboard gives the host.
public protocol WidgetRequest: Sendable {}
