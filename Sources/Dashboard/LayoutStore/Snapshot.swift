import CanvasCore
import FoundationEssentials

/// JSON encoding of stored values, with sorted keys so equal values are equal text.
enum Snapshot {
    static func encode(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static func decode(_ text: String) throws -> LayoutData {
        try JSONDecoder().decode(LayoutData.self, from: Data(text.utf8))
    }

    static func decodeValues(_ text: String) throws -> WidgetValues {
        try JSONDecoder().decode(WidgetValues.self, from: Data(text.utf8))
    }
}
