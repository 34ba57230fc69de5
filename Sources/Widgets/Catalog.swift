import CanvasUI

extension WidgetCatalog {
    /// Every widget kind TermCanvas ships, in catalog order.
    public static let builtIn = WidgetCatalog([CalendarWidget.descriptor, EventLogWidget.descriptor])
}
