/// An iCalendar component as written (RFC 5545 section 3.4 and 3.6): `VCALENDAR`, `VEVENT`,
/// `VTODO`, `VALARM`, `VTIMEZONE`, … with its properties and the components inside it, in their
/// order. Every property is kept as it came, those the dashboard does not read among them, so a
/// round trip loses nothing.
public struct ICalComponent: Hashable, Sendable {
    /// Upper case: `VEVENT`.
    public var name: String
    public var properties: [ICalProperty]
    public var components: [ICalComponent]
    /// The line of its `BEGIN`, for messages; 0 for one made in code.
    public var line: Int

    public init(name: String, properties: [ICalProperty] = [], components: [ICalComponent] = [], line: Int = 0) {
        self.name = name.uppercased()
        self.properties = properties
        self.components = components
        self.line = line
    }

    /// The first property named `name` (any case).
    public subscript(_ name: String) -> ICalProperty? {
        let wanted = name.uppercased()
        return properties.first { $0.name == wanted }
    }

    /// Every property named `name` (any case), in order.
    public func all(_ name: String) -> [ICalProperty] {
        let wanted = name.uppercased()
        return properties.filter { $0.name == wanted }
    }

    /// The components inside named `name` (any case), in order.
    public func components(named name: String) -> [ICalComponent] {
        let wanted = name.uppercased()
        return components.filter { $0.name == wanted }
    }
}

/// One property: `DTSTART;TZID=Europe/Paris:20261130T090000`. The value is kept as written
/// (text still escaped); `ICalText` reads and writes text values.
public struct ICalProperty: Hashable, Sendable {
    /// Upper case: `DTSTART`.
    public var name: String
    public var parameters: [ICalParameter]
    public var value: String
    /// Its first line in the file, for messages; 0 for one made in code.
    public var line: Int

    public init(name: String, parameters: [ICalParameter] = [], value: String, line: Int = 0) {
        self.name = name.uppercased()
        self.parameters = parameters
        self.value = value
        self.line = line
    }

    /// The first value of the parameter `name` (any case): `TZID`, `VALUE`, `RELATED`, ….
    public func parameter(_ name: String) -> String? {
        let wanted = name.uppercased()
        return parameters.first { $0.name == wanted }?.values.first
    }
}

/// A property's parameter: `TZID=Europe/Paris`, `MEMBER="mailto:a@example.com","mailto:b@example.com"`.
public struct ICalParameter: Hashable, Sendable {
    /// Upper case: `TZID`.
    public var name: String
    /// Unquoted.
    public var values: [String]

    public init(name: String, values: [String]) {
        self.name = name.uppercased()
        self.values = values
    }
}

/// What is wrong with an iCalendar file, and on which line: `line 12: END:VTODO closes BEGIN:VEVENT of line 3`.
public struct ICalError: Error, Equatable, CustomStringConvertible {
    public let line: Int
    public let message: String

    public init(line: Int, _ message: String) {
        self.line = line
        self.message = message
    }

    public var description: String { "line \(line): \(message)" }
}
