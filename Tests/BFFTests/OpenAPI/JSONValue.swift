import Foundation
import Yams

/// A JSON (or YAML) value as plain data, so a document and a response body can be compared.
indirect enum JSONValue: Decodable, Sendable, Equatable {
    case object([String: JSONValue])
    case array([JSONValue])
    case string(String)
    case number(Double)
    case bool(Bool)
    case null

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let bool = try? container.decode(Bool.self) {
            self = .bool(bool)
        } else if let number = try? container.decode(Double.self) {
            self = .number(number)
        } else if let string = try? container.decode(String.self) {
            self = .string(string)
        } else if let array = try? container.decode([JSONValue].self) {
            self = .array(array)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    static func json(_ data: Data) throws -> JSONValue { try JSONDecoder().decode(JSONValue.self, from: data) }
    static func yaml(_ text: String) throws -> JSONValue { try YAMLDecoder().decode(JSONValue.self, from: text) }

    subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { members[key] } else { nil }
    }

    var string: String? { if case .string(let value) = self { value } else { nil } }
    var array: [JSONValue]? { if case .array(let value) = self { value } else { nil } }
    var object: [String: JSONValue]? { if case .object(let value) = self { value } else { nil } }
    var number: Double? { if case .number(let value) = self { value } else { nil } }
    var bool: Bool? { if case .bool(let value) = self { value } else { nil } }

    /// The value as JSON text, for request bodies taken from the document's examples.
    var jsonText: String {
        switch self {
        case .object(let members):
            "{" + members.sorted { $0.key < $1.key }.map { "\(JSONValue.string($0.key).jsonText):\($0.value.jsonText)" }
                .joined(separator: ",") + "}"
        case .array(let items): "[" + items.map(\.jsonText).joined(separator: ",") + "]"
        case .string(let text): String(decoding: try! JSONEncoder().encode(text), as: UTF8.self)
        case .number(let number): number == number.rounded() ? String(Int64(number)) : String(number)
        case .bool(let bool): String(bool)
        case .null: "null"
        }
    }
}
