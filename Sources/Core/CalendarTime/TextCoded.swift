/// A value that travels as one string: its `description` on the wire, read back by `parse`. Its
/// `Codable` conformance comes from those two, and a string that does not parse is a decoding
/// error that says what was expected.
public protocol TextCoded: Codable, CustomStringConvertible {
    static func parse(_ text: String) -> Self?
    /// What a valid text looks like, for the error: "an ISO 8601 date like 2026-11-22".
    static var expected: String { get }
}

extension TextCoded {
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let value = Self.parse(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "expected \(Self.expected), got '\(text.prefix(64))'"))
        }
        self = value
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

extension TextCoded {
    /// For a type that also takes string literals: a literal that does not parse is a
    /// programmer's error and traps.
    public init(stringLiteral text: String) {
        guard let value = Self.parse(text) else { preconditionFailure("not \(Self.expected): \(text)") }
        self = value
    }
}
