import CanvasUI

extension WidgetCatalog {
    /// Every widget kind TermCanvas ships, in catalog order. The micro-apps' widgets ask for their
    /// data with `AppCommand` requests, which the dashboard hands to the sync engine.
    public static let builtIn = WidgetCatalog([
        TodoWidget.descriptor,
        CalendarWidget.descriptor,
        ChatWidget.descriptor,
        EventLogWidget.descriptor,
    ])
}
