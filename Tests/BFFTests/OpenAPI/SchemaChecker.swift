import Foundation

/// Checks a JSON value against an OpenAPI 3.0 schema: the keywords the BFF's document uses
/// (`$ref`, `oneOf`, `type`, `nullable`, `required`, `properties`, `items`, `enum`, `format` date and
/// date-time, `pattern`, lengths and bounds). Objects are closed: a property the schema does not
/// name is a mismatch too, so the document cannot fall behind the server.
struct SchemaChecker {
    let document: JSONValue

    /// Every way `value` differs from `schema`; empty when it conforms.
    func problems(_ value: JSONValue, _ schema: JSONValue, at path: String = "$") -> [String] {
        if let reference = schema["$ref"]?.string {
            guard let resolved = resolve(reference) else { return ["\(path): unresolvable \(reference)"] }
            return problems(value, resolved, at: path)
        }
        if value == .null {
            return schema["nullable"]?.bool == true ? [] : ["\(path): null but not nullable"]
        }
        if let allowed = schema["enum"]?.array, !allowed.contains(value) { return ["\(path): \(value) not in enum"] }
        if let options = schema["oneOf"]?.array {
            let matching = options.filter { problems(value, $0, at: path).isEmpty }.count
            return matching == 1 ? [] : ["\(path): matches \(matching) of the \(options.count) schemas of oneOf, not one"]
        }
        switch schema["type"]?.string {
        case "object": return objectProblems(value, schema, at: path)
        case "array":
            guard let items = value.array else { return ["\(path): expected an array"] }
            guard let itemSchema = schema["items"] else { return [] }
            return items.enumerated().flatMap { problems($1, itemSchema, at: "\(path)[\($0)]") }
        case "string": return stringProblems(value, schema, at: path)
        case "integer":
            guard let number = value.number, number == number.rounded() else { return ["\(path): expected an integer"] }
            return boundProblems(number, schema, at: path)
        case "number":
            guard let number = value.number else { return ["\(path): expected a number"] }
            return boundProblems(number, schema, at: path)
        case "boolean": return value.bool == nil ? ["\(path): expected a boolean"] : []
        default: return []
        }
    }

    private func resolve(_ reference: String) -> JSONValue? {
        reference.split(separator: "/").dropFirst().reduce(document as JSONValue?) { node, key in node?[String(key)] }
    }

    private func objectProblems(_ value: JSONValue, _ schema: JSONValue, at path: String) -> [String] {
        guard let members = value.object else { return ["\(path): expected an object"] }
        let properties = schema["properties"]?.object ?? [:]
        var found = (schema["required"]?.array ?? []).compactMap(\.string)
            .filter { members[$0] == nil }.map { "\(path).\($0): required but missing" }
        for (key, member) in members.sorted(by: { $0.key < $1.key }) {
            guard let propertySchema = properties[key] else {
                found.append("\(path).\(key): not in the document")
                continue
            }
            found += problems(member, propertySchema, at: "\(path).\(key)")
        }
        return found
    }

    private func stringProblems(_ value: JSONValue, _ schema: JSONValue, at path: String) -> [String] {
        guard let text = value.string else { return ["\(path): expected a string"] }
        var found: [String] = []
        if let minimum = schema["minLength"]?.number, Double(text.count) < minimum { found.append("\(path): shorter than \(minimum)") }
        if let maximum = schema["maxLength"]?.number, Double(text.count) > maximum { found.append("\(path): longer than \(maximum)") }
        let formats = ["date": #"^\d{4}-\d{2}-\d{2}$"#,
                       "date-time": #"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$"#]
        let patterns = [schema["pattern"]?.string, schema["format"]?.string.flatMap { formats[$0] }].compactMap { $0 }
        for pattern in patterns where text.range(of: pattern, options: .regularExpression) == nil {
            found.append("\(path): '\(text)' does not match \(pattern)")
        }
        return found
    }

    private func boundProblems(_ number: Double, _ schema: JSONValue, at path: String) -> [String] {
        var found: [String] = []
        if let minimum = schema["minimum"]?.number, number < minimum { found.append("\(path): below \(minimum)") }
        if let maximum = schema["maximum"]?.number, number > maximum { found.append("\(path): above \(maximum)") }
        return found
    }
}
