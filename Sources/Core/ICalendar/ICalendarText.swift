/// iCalendar's text form (RFC 5545 section 3.1): content lines, folded at 75 octets, with
/// `BEGIN:`/`END:` around components. `read` takes what calendar programs write (LF alone as well
/// as CRLF, blank lines, folds of a tab) and names the line of any mistake; `write` writes what
/// the RFC says (CRLF, folds between characters, never inside one).
public enum ICalendarText {
    /// Components inside components, at most: a calendar's events' alarms are three deep.
    public static let maximumDepth = 16

    /// The components of `text`, usually one `VCALENDAR`.
    public static func read(_ text: String) throws(ICalError) -> [ICalComponent] {
        var top: [ICalComponent] = []
        var open: [ICalComponent] = []
        for (number, line) in unfolded(text) {
            let property = try contentLine(line, number: number)
            switch property.name {
            case "BEGIN":
                let name = property.value.uppercased()
                guard isName(name) else { throw ICalError(line: number, "BEGIN:\(property.value) names no component") }
                guard open.count < maximumDepth else { throw ICalError(line: number, "components are nested more than \(maximumDepth) deep") }
                open.append(ICalComponent(name: name, line: number))
            case "END":
                guard let component = open.popLast() else { throw ICalError(line: number, "END:\(property.value) closes nothing") }
                guard property.value.uppercased() == component.name else {
                    throw ICalError(line: number, "END:\(property.value) closes BEGIN:\(component.name) of line \(component.line)")
                }
                if open.isEmpty { top.append(component) } else { open[open.count - 1].components.append(component) }
            default:
                guard !open.isEmpty else { throw ICalError(line: number, "\(property.name) is outside any component (BEGIN:VCALENDAR first)") }
                open[open.count - 1].properties.append(property)
            }
        }
        if let unclosed = open.last { throw ICalError(line: unclosed.line, "BEGIN:\(unclosed.name) is never closed (END:\(unclosed.name))") }
        return top
    }

    /// `components` as iCalendar text: CRLF after every line, lines folded at 75 octets.
    public static func write(_ components: [ICalComponent]) -> String {
        var out = ""
        func line(_ text: String) {
            var octets = 0
            var lineStart = true
            for character in text.unicodeScalars {
                let size = character.utf8.count
                if octets + size > (lineStart ? 75 : 74) {
                    out += "\r\n "
                    octets = 0
                    lineStart = false
                }
                out.unicodeScalars.append(character)
                octets += size
            }
            out += "\r\n"
        }
        func write(_ component: ICalComponent) {
            line("BEGIN:\(component.name)")
            for property in component.properties { line(contentLine(property)) }
            component.components.forEach(write)
            line("END:\(component.name)")
        }
        components.forEach(write)
        return out
    }

    /// `NAME;PARAM=value:VALUE`, parameter values quoted where they must be.
    public static func contentLine(_ property: ICalProperty) -> String {
        var text = property.name
        for parameter in property.parameters {
            let values = parameter.values.map { value in
                let plain = value.filter { $0 != "\"" }
                return plain.contains(where: { $0 == ":" || $0 == ";" || $0 == "," }) ? "\"\(plain)\"" : plain
            }
            text += ";\(parameter.name)=" + values.joined(separator: ",")
        }
        return text + ":" + property.value
    }

    /// The logical lines of `text` with the number of the first physical line of each: a line
    /// that starts with a space or a tab continues the one before, without that character.
    static func unfolded(_ text: String) -> [(Int, Substring)] {
        var lines: [(Int, Substring)] = []
        var pending: (number: Int, text: String)?
        // By bytes: a CRLF is one `Character`, which a split on "\n" would not see.
        for (index, raw) in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            let physical = Substring(raw.last == UInt8(ascii: "\r") ? raw.dropLast() : raw)
            if let first = physical.first, first == " " || first == "\t", pending != nil {
                pending!.text += physical.dropFirst()
                continue
            }
            if let done = pending, !done.text.isEmpty { lines.append((done.number, Substring(done.text))) }
            pending = (index + 1, String(physical))
        }
        if let done = pending, !done.text.isEmpty { lines.append((done.number, Substring(done.text))) }
        return lines
    }

    /// One content line: `NAME *(;PARAM=VALUE *(,VALUE)) : VALUE`.
    static func contentLine(_ line: Substring, number: Int) throws(ICalError) -> ICalProperty {
        var rest = line[...]
        let name = rest.prefix { $0 != ";" && $0 != ":" }
        guard isName(name) else {
            throw ICalError(line: number, name.isEmpty ? "a line starts with a property's name (NAME:value)"
                : "\(name.prefix(40)): a property's name is letters, digits and '-'")
        }
        rest = rest.dropFirst(name.count)
        var parameters: [ICalParameter] = []
        while rest.first == ";" {
            rest = rest.dropFirst()
            let parameterName = rest.prefix { $0 != "=" && $0 != ";" && $0 != ":" }
            guard isName(parameterName), rest.dropFirst(parameterName.count).first == "=" else {
                throw ICalError(line: number, "\(name): a parameter is NAME=value (\(parameterName.prefix(40)))")
            }
            rest = rest.dropFirst(parameterName.count + 1)
            var values: [String] = []
            repeat {
                if rest.first == "," { rest = rest.dropFirst() }
                if rest.first == "\"" {
                    let quoted = rest.dropFirst().prefix { $0 != "\"" }
                    guard rest.dropFirst(quoted.count + 1).first == "\"" else {
                        throw ICalError(line: number, "\(name);\(parameterName): a quoted value is never closed")
                    }
                    values.append(String(quoted))
                    rest = rest.dropFirst(quoted.count + 2)
                } else {
                    let plain = rest.prefix { $0 != "," && $0 != ";" && $0 != ":" && $0 != "\"" }
                    guard rest.dropFirst(plain.count).first != "\"" else {
                        throw ICalError(line: number, "\(name);\(parameterName): a value with a quote in it must be quoted whole")
                    }
                    values.append(String(plain))
                    rest = rest.dropFirst(plain.count)
                }
            } while rest.first == ","
            parameters.append(ICalParameter(name: String(parameterName), values: values))
        }
        guard rest.first == ":" else { throw ICalError(line: number, "\(name): a ':' comes before the value") }
        return ICalProperty(name: String(name), parameters: parameters, value: String(rest.dropFirst()), line: number)
    }

    private static func isName(_ text: some StringProtocol) -> Bool {
        !text.isEmpty && text.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) || ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    }
}

/// TEXT values (RFC 5545 section 3.3.11): `\n` a line break, `\,` `\;` `\\` themselves.
public enum ICalText {
    public static func unescape(_ value: String) -> String {
        var out = ""
        var escaping = false
        for character in value {
            if escaping {
                out.append(character == "n" || character == "N" ? "\n" : character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else {
                out.append(character)
            }
        }
        return out
    }

    public static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "\\": out += "\\\\"
            case ";": out += "\\;"
            case ",": out += "\\,"
            case "\n": out += "\\n"
            case "\r": continue
            default: out.append(character)
            }
        }
        return out
    }

    /// A list of texts (`CATEGORIES:work,travel\, abroad`), split on the commas not escaped.
    public static func list(_ value: String) -> [String] {
        var items: [String] = []
        var current = ""
        var escaping = false
        for character in value {
            if escaping {
                current.append("\\")
                current.append(character)
                escaping = false
            } else if character == "\\" {
                escaping = true
            } else if character == "," {
                items.append(unescape(current))
                current = ""
            } else {
                current.append(character)
            }
        }
        items.append(unescape(current))
        return items
    }
}
