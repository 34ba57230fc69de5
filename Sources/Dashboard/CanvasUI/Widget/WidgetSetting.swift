/// One user setting of a widget: a key, a label, the current value and the values it may take.
public struct WidgetSetting: Hashable, Sendable {
    public let key: String
    public let label: String
    public let value: String
    public let choices: [String]

    public init(key: String, label: String, value: String, choices: [String]) {
        self.key = key
        self.label = label
        self.value = value
        self.choices = choices
    }

    /// The choice after the current one, wrapping around.
    public var nextValue: String {
        guard let index = choices.firstIndex(of: value) else { return choices.first ?? value }
        return choices[(index + 1) % choices.count]
    }
}
