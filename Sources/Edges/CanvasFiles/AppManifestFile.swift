import CanvasCore
import FoundationEssentials
import MicroAppProtocol
import ServerAPI
import YAMLDocuments

/// The micro-app manifest file format (`app.yaml`):
///
/// ```yaml
/// id: sysmon
/// name: System monitor
/// version: 1.0.0
/// description: CPU, memory, load and top processes
/// protocol: 1
/// exec: [python3, sysmon.py]
/// events: { publishes: [sysmon.cpu.high], subscribes: [calendar.date.selected] }
/// limits: { startup: 5s, memory: 256MiB }
/// minSize: { width: 30, height: 8 }
/// permissions: { files: { read: [/proc], write: [~/notes] }, network: { connect: [443] }, run: [~/bin/tool] }
/// ```
///
/// An app without the protocol has `sample: { every: 5s, show: text|gauge|sparkline }` instead of
/// `protocol`. A remote app, published to a server's registry, has `entry: URL` (where it runs)
/// instead of `exec`. Every mistake names the file, line, column and field, as layout files do.
public enum AppManifestFile {
    static let keys: Set<String> = [
        "id", "name", "version", "description", "protocol", "exec", "entry", "workdir", "env", "events", "backend", "state",
        "limits", "minSize", "sample", "permissions", "settings",
    ]

    /// - Throws: `FileError` for one mistake, `FileErrors` for several (each field is checked,
    ///   so one run names them all); a file that is not YAML stops at its first mistake.
    public static func parse(_ text: String, file: String) throws -> AppManifest {
        let reader = YAMLReader(file: file)
        let root = try reader.root(of: text)
        let rootNode = Node.mapping(root)
        var problems: [FileError] = []
        /// Runs one field's checks; a mistake is kept and the next field checked.
        func check(_ body: () throws -> Void) throws {
            do {
                try body()
            } catch let error as FileError {
                problems.append(error)
            }
        }
        func required(_ key: String) throws -> Node { try reader.required(key, in: root, at: rootNode, field: "") }

        try check { try reader.rejectUnknownKeys(in: root, allowed: keys, field: "") }
        var id = "", name = "", version = ""
        /// Whether the id is one: the names of the events it publishes are checked against it.
        var idIsValid = false
        try check {
            let idNode = try required("id")
            id = try reader.string(idNode, field: "id")
            guard ManifestRules.isAppID(id) else {
                throw reader.error(at: idNode, field: "id", "expected \(ManifestRules.appIDRule), got '\(id)'")
            }
            guard !AppKind.builtIn.contains(AppKind(id)) else {
                throw reader.error(at: idNode, field: "id", "'\(id)' is a built-in widget; choose another id")
            }
            idIsValid = true
        }
        try check {
            let nameNode = try required("name")
            name = try reader.string(nameNode, field: "name")
            guard ManifestRules.isName(name) else {
                throw reader.error(at: nameNode, field: "name", "expected \(ManifestRules.nameLength.lowerBound) to "
                                   + "\(ManifestRules.nameLength.upperBound) characters on one line, without control characters")
            }
        }
        try check {
            let versionNode = try required("version")
            version = try reader.string(versionNode, field: "version")
            guard SemanticVersion(version) != nil else {
                throw reader.error(at: versionNode, field: "version", "expected a semantic version such as 1.0.0, got '\(version)'")
            }
        }
        var manifest = AppManifest(id: id, name: name, version: version, exec: [])
        if let node = root["description"] {
            try check {
                manifest.description = try reader.string(node, field: "description")
                guard ManifestRules.isDescription(manifest.description) else {
                    throw reader.error(at: node, field: "description",
                                       "expected at most \(ManifestRules.descriptionLength.upperBound) characters on one line, without control characters")
                }
            }
        }
        try check {
            switch (root["exec"], root["entry"]) {
            case (let execNode?, nil):
                manifest.exec = try command(execNode, reader: reader)
            case (nil, let entryNode?):
                manifest.entry = try entry(entryNode, reader: reader)
                guard root["sample"] == nil else { throw reader.error(at: entryNode, field: "entry", "a remote app speaks the protocol: no sample") }
            case (_?, let entryNode?):
                throw reader.error(at: entryNode, field: "entry", "an app has either exec (it runs here) or entry (it runs there), not both")
            case (nil, nil):
                throw reader.error(at: rootNode, field: "exec", "is missing (or give entry: for a remote app)")
            }
        }
        if let node = root["workdir"] {
            try check { manifest.workingDirectory = try reader.string(node, field: "workdir") }
        }
        if let node = root["env"] {
            try check {
                manifest.environment = try reader.sequence(node, field: "env").enumerated().map { index, item in
                    let variable = try reader.string(item, field: "env[\(index)]")
                    guard isVariableName(variable) else {
                        throw reader.error(at: item, field: "env[\(index)]", "expected a variable name such as LANG, got '\(variable)'")
                    }
                    return variable
                }
            }
        }
        if let node = root["events"] { try check { try events(node, into: &manifest, checkingOwnership: idIsValid, reader: reader) } }
        if let node = root["backend"] {
            try check {
                let paths = try reader.sequence(node, field: "backend")
                guard paths.count <= ManifestRules.maximumBackendPaths else {
                    throw reader.error(at: node, field: "backend", "expected at most \(ManifestRules.maximumBackendPaths) paths")
                }
                manifest.backend = try paths.enumerated().map { index, item in
                    let path = try reader.string(item, field: "backend[\(index)]")
                    guard ManifestRules.isBackendPath(path) else {
                        throw reader.error(at: item, field: "backend[\(index)]", "expected a path under /api/ such as /api/todo/items, got '\(path)'")
                    }
                    return path
                }
            }
        }
        if let node = root["permissions"] { try check { manifest.machine = try machineAccess(node, reader: reader) } }
        if let node = root["state"] { try check { manifest.keepsState = try bool(node, field: "state", reader: reader) } }
        if let node = root["limits"] { try check { manifest.limits = try limits(node, reader: reader) } }
        if let node = root["settings"] { try check { manifest.settings = try settings(node, reader: reader) } }
        if let node = root["minSize"] {
            try check {
                let mapping = try reader.mapping(node, field: "minSize")
                try reader.rejectUnknownKeys(in: mapping, allowed: ["width", "height"], field: "minSize")
                manifest.minimumSize = ViewSize(
                    width: try mapping["width"].map { try reader.int($0, field: "minSize.width", in: ManifestRules.widths) }
                        ?? manifest.minimumSize.width,
                    height: try mapping["height"].map { try reader.int($0, field: "minSize.height", in: ManifestRules.heights) }
                        ?? manifest.minimumSize.height)
            }
        }
        try check {
            switch (root["protocol"], root["sample"]) {
            case (let protocolNode?, nil):
                let text = try reader.string(protocolNode, field: "protocol")
                guard let version = ProtocolVersion(text) else {
                    throw reader.error(at: protocolNode, field: "protocol", "expected a protocol version such as 1, got '\(text)'")
                }
                manifest.protocolVersion = version
            case (nil, let sampleNode?):
                manifest.protocolVersion = nil
                manifest.keepsState = false  // a sampled command has no way to save any
                manifest.sample = try sample(sampleNode, reader: reader)
            case (_?, let sampleNode?):
                throw reader.error(at: sampleNode, field: "sample", "an app has either protocol or sample, not both")
            case (nil, nil):
                throw reader.error(at: rootNode, field: "protocol", "is missing (or give sample: for an app without the protocol)")
            }
        }
        try FileErrors.throwing(problems)
        return manifest
    }

    private static func command(_ node: Node, reader: YAMLReader) throws -> [String] {
        let arguments: [String]
        if case .scalar(let scalar) = node {
            // No shell splits it: `node app.js` would be looked for as one program of that name.
            let words = scalar.string.split(whereSeparator: \.isWhitespace)
            guard words.count <= 1 else {
                throw reader.error(at: node, field: "exec", "is one string; write the program and its arguments as a list: "
                                   + "[\(words.prefix(8).joined(separator: ", "))]")
            }
            arguments = [scalar.string]
        } else {
            arguments = try reader.sequence(node, field: "exec").enumerated().map { index, item in
                try reader.string(item, field: "exec[\(index)]")
            }
        }
        guard let program = arguments.first, !program.isEmpty, arguments.count <= 64, !arguments.contains(where: { $0.contains("\0") }) else {
            throw reader.error(at: node, field: "exec", "expected the program and its arguments, e.g. [python3, app.py]")
        }
        return arguments
    }

    /// An `http` or `https` URL with a host and no credentials, query or fragment.
    private static func entry(_ node: Node, reader: YAMLReader) throws -> URL {
        let text = try reader.string(node, field: "entry")
        guard let url = ManifestRules.entry(text) else {
            throw reader.error(at: node, field: "entry", "expected an http or https URL such as https://deploys.example.com/app, got '\(text)'")
        }
        return url
    }

    private static func events(_ node: Node, into manifest: inout AppManifest, checkingOwnership: Bool, reader: YAMLReader) throws {
        let mapping = try reader.mapping(node, field: "events")
        try reader.rejectUnknownKeys(in: mapping, allowed: ["publishes", "subscribes"], field: "events")
        if let publishes = mapping["publishes"] {
            manifest.publishes = try names(publishes, field: "events.publishes", reader: reader).enumerated().map { index, item in
                let field = "events.publishes[\(index)]"
                let name = try reader.string(item, field: field)
                guard ManifestRules.isEventName(name) else {
                    throw reader.error(at: item, field: field, "expected a name source.entity.action in a-z, 0-9, - and _, got '\(name)'")
                }
                guard !checkingOwnership || ManifestRules.isOwnEventName(name, of: manifest.id) else {
                    throw reader.error(at: item, field: field, "an app publishes only its own events: expected \(manifest.id).entity.action")
                }
                return name
            }
        }
        if let subscribes = mapping["subscribes"] {
            manifest.subscribes = try names(subscribes, field: "events.subscribes", reader: reader).enumerated().map { index, item in
                let field = "events.subscribes[\(index)]"
                let pattern = try reader.string(item, field: field)
                guard ManifestRules.isEventPattern(pattern) else {
                    throw reader.error(at: item, field: field, "expected a name or a pattern such as calendar.* or *, got '\(pattern)'")
                }
                return pattern
            }
        }
    }

    /// The items of an `events` list, at most `ManifestRules.maximumEvents`.
    private static func names(_ node: Node, field: String, reader: YAMLReader) throws -> Node.Sequence {
        try list(node, field: field, reader: reader, most: ManifestRules.maximumEvents, of: "names")
    }

    /// The items of a list, at most `most` `of` them.
    private static func list(_ node: Node, field: String, reader: YAMLReader, most: Int, of items: String) throws -> Node.Sequence {
        let sequence = try reader.sequence(node, field: field)
        guard sequence.count <= most else { throw reader.error(at: node, field: field, "expected at most \(most) \(items)") }
        return sequence
    }

    /// `permissions`: what the app may touch of the machine beyond its own folders.
    private static func machineAccess(_ node: Node, reader: YAMLReader) throws -> MachineAccess {
        let mapping = try reader.mapping(node, field: "permissions")
        try reader.rejectUnknownKeys(in: mapping, allowed: ["files", "network", "run"], field: "permissions")
        var access = MachineAccess()
        if let filesNode = mapping["files"] {
            let files = try reader.mapping(filesNode, field: "permissions.files")
            try reader.rejectUnknownKeys(in: files, allowed: ["read", "write"], field: "permissions.files")
            let rule = "a folder or file as ~/path or /path, without . or .. parts"
            if let node = files["read"] {
                access.read = try permissionStrings(node, field: "permissions.files.read", reader: reader, rule: rule, MachineAccess.isPath)
            }
            if let node = files["write"] {
                access.write = try permissionStrings(node, field: "permissions.files.write", reader: reader, rule: rule, MachineAccess.isPath)
            }
        }
        if let networkNode = mapping["network"] {
            let network = try reader.mapping(networkNode, field: "permissions.network")
            try reader.rejectUnknownKeys(in: network, allowed: ["connect"], field: "permissions.network")
            if let node = network["connect"] {
                let items = try permissionItems(node, field: "permissions.network.connect", reader: reader)
                access.connect = try items.enumerated().map { index, item in
                    try reader.int(item, field: "permissions.network.connect[\(index)]", in: 1...65_535)
                }
            }
        }
        if let node = mapping["run"] {
            access.run = try permissionStrings(node, field: "permissions.run", reader: reader,
                                               rule: "a program name such as jq, or its path as ~/path or /path", MachineAccess.isProgram)
        }
        return access
    }

    /// The items of a `permissions` list, at most `MachineAccess.maximumEntries`.
    private static func permissionItems(_ node: Node, field: String, reader: YAMLReader) throws -> Node.Sequence {
        try list(node, field: field, reader: reader, most: MachineAccess.maximumEntries, of: "entries")
    }

    /// The strings of a `permissions` list, each as `isValid` says (`rule` in words).
    private static func permissionStrings(_ node: Node, field: String, reader: YAMLReader, rule: String,
                                _ isValid: (String) -> Bool) throws -> [String] {
        try permissionItems(node, field: field, reader: reader).enumerated().map { index, item in
            let text = try reader.string(item, field: "\(field)[\(index)]")
            guard isValid(text) else { throw reader.error(at: item, field: "\(field)[\(index)]", "expected \(rule), got '\(text)'") }
            return text
        }
    }

    /// `settings: [{ name: units, type: choice, choices: [metric, imperial], default: metric, help: … }]`;
    /// `type: bool` has the choices true and false.
    private static func settings(_ node: Node, reader: YAMLReader) throws -> [AppManifest.Setting] {
        let items = try list(node, field: "settings", reader: reader, most: 16, of: "settings")
        var seen: Set<String> = []
        return try items.enumerated().map { index, item in
            let field = "settings[\(index)]"
            let mapping = try reader.mapping(item, field: field)
            try reader.rejectUnknownKeys(in: mapping, allowed: ["name", "type", "choices", "default", "help"], field: field)
            let nameNode = try reader.required("name", in: mapping, at: item, field: field)
            let name = try reader.string(nameNode, field: "\(field).name")
            guard isSettingWord(name, most: 32), seen.insert(name).inserted else {
                throw reader.error(at: nameNode, field: "\(field).name", "expected a name of its own in a-z, A-Z, 0-9, - and _ (at most 32), got '\(name)'")
            }
            let typeNode = try reader.required("type", in: mapping, at: item, field: field)
            let choices: [String]
            switch try reader.string(typeNode, field: "\(field).type") {
            case "bool":
                choices = ["true", "false"]
            case "choice":
                let choicesNode = try reader.required("choices", in: mapping, at: item, field: field)
                choices = try list(choicesNode, field: "\(field).choices", reader: reader, most: 16, of: "choices").enumerated().map { number, choice in
                    let text = try reader.string(choice, field: "\(field).choices[\(number)]")
                    guard ManifestRules.isName(text), text.utf8.count <= 40 else {
                        throw reader.error(at: choice, field: "\(field).choices[\(number)]", "expected 1 to 40 characters on one line, got '\(text)'")
                    }
                    return text
                }
                guard choices.count >= 2, Set(choices).count == choices.count else {
                    throw reader.error(at: choicesNode, field: "\(field).choices", "expected 2 to 16 different choices")
                }
            case let other:
                throw reader.error(at: typeNode, field: "\(field).type", "expected choice or bool, got '\(other)'")
            }
            var defaultValue = choices[0]
            if let defaultNode = mapping["default"] {
                defaultValue = try reader.string(defaultNode, field: "\(field).default")
                guard choices.contains(defaultValue) else {
                    throw reader.error(at: defaultNode, field: "\(field).default", "expected one of \(choices.joined(separator: ", ")), got '\(defaultValue)'")
                }
            }
            var help = ""
            if let helpNode = mapping["help"] {
                help = try reader.string(helpNode, field: "\(field).help")
                guard ManifestRules.isDescription(help), help.utf8.count <= 80 else {
                    throw reader.error(at: helpNode, field: "\(field).help", "expected at most 80 characters on one line")
                }
            }
            return AppManifest.Setting(name: name, help: help, choices: choices, defaultValue: defaultValue)
        }
    }

    private static func isSettingWord(_ text: String, most: Int) -> Bool {
        !text.isEmpty && text.utf8.count <= most
            && text.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_") }
    }

    private static func limits(_ node: Node, reader: YAMLReader) throws -> AppManifest.Limits {
        let mapping = try reader.mapping(node, field: "limits")
        try reader.rejectUnknownKeys(in: mapping, allowed: ["startup", "memory", "openFiles", "processes", "disk", "cpu", "publishesPerSecond", "state", "log"],
                                     field: "limits")
        var limits = AppManifest.Limits()
        if let node = mapping["startup"] { limits.startupSeconds = try seconds(node, field: "limits.startup", in: 0.1...60, reader: reader) }
        if let node = mapping["memory"] { limits.memoryBytes = try bytes(node, field: "limits.memory", in: 16 << 20...16 << 30, reader: reader) }
        if let node = mapping["openFiles"] { limits.openFiles = try reader.int(node, field: "limits.openFiles", in: 16...4096) }
        if let node = mapping["processes"] { limits.processes = try reader.int(node, field: "limits.processes", in: 8...4096) }
        if let node = mapping["disk"] { limits.diskBytes = try bytes(node, field: "limits.disk", in: 1 << 20...64 << 30, reader: reader) }
        if let node = mapping["cpu"] { limits.cpuSeconds = Int(try seconds(node, field: "limits.cpu", in: 1...86_400 * 365, reader: reader)) }
        if let node = mapping["publishesPerSecond"] {
            limits.publishesPerSecond = try reader.int(node, field: "limits.publishesPerSecond", in: 1...1000)
        }
        // State travels in one protocol line (256 KiB) with its envelope.
        if let node = mapping["state"] { limits.stateBytes = try bytes(node, field: "limits.state", in: 0...192 << 10, reader: reader) }
        if let node = mapping["log"] { limits.logBytes = try bytes(node, field: "limits.log", in: 8192...64 << 20, reader: reader) }
        return limits
    }

    private static func sample(_ node: Node, reader: YAMLReader) throws -> AppManifest.Sample {
        let mapping = try reader.mapping(node, field: "sample")
        try reader.rejectUnknownKeys(in: mapping, allowed: ["every", "show"], field: "sample")
        let every = try seconds(try reader.required("every", in: mapping, at: node, field: "sample"), field: "sample.every",
                                in: 1...86_400, reader: reader)
        var show = AppManifest.Sample.Show.text
        if let showNode = mapping["show"] {
            let text = try reader.string(showNode, field: "sample.show")
            guard let value = AppManifest.Sample.Show(rawValue: text) else {
                throw reader.error(at: showNode, field: "sample.show",
                                   "expected one of \(AppManifest.Sample.Show.allCases.map(\.rawValue).joined(separator: ", ")), got '\(text)'")
            }
            show = value
        }
        return AppManifest.Sample(everySeconds: every, show: show)
    }

    /// `5s`, `500ms`, `2m`, `1h` or a number of seconds.
    private static func seconds(_ node: Node, field: String, in range: ClosedRange<Double>, reader: YAMLReader) throws -> Double {
        let text = try reader.string(node, field: field)
        let units: [(String, Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600), ("", 1)]
        for (suffix, scale) in units where text.hasSuffix(suffix) {
            if let number = Double(text.dropLast(suffix.count)), number.isFinite, range.contains(number * scale) { return number * scale }
            break
        }
        throw reader.error(at: node, field: field,
                           "expected a duration from \(describe(range.lowerBound)) to \(describe(range.upperBound)) such as 5s or 500ms, got '\(text)'")
    }

    /// `64KiB`, `256MiB`, `1GiB` or a number of bytes.
    private static func bytes(_ node: Node, field: String, in range: ClosedRange<Int>, reader: YAMLReader) throws -> Int {
        let text = try reader.string(node, field: field)
        let units: [(String, Int)] = [("KiB", 1 << 10), ("MiB", 1 << 20), ("GiB", 1 << 30), ("", 1)]
        for (suffix, scale) in units where text.hasSuffix(suffix) {
            if let number = Int(text.dropLast(suffix.count)), number >= 0, number <= Int.max / scale, range.contains(number * scale) {
                return number * scale
            }
            break
        }
        throw reader.error(at: node, field: field, "expected a size from \(describe(bytes: range.lowerBound)) to \(describe(bytes: range.upperBound)) "
                           + "such as 64KiB or 256MiB, got '\(text)'")
    }

    /// `16MiB`, `8KiB`, `0` bytes: a limit as the file would write it.
    private static func describe(bytes: Int) -> String {
        for (unit, shift) in [("GiB", 30), ("MiB", 20), ("KiB", 10)] where bytes > 0 && bytes % (1 << shift) == 0 {
            return "\(bytes >> shift)\(unit)"
        }
        return "\(bytes) bytes"
    }

    private static func bool(_ node: Node, field: String, reader: YAMLReader) throws -> Bool {
        switch try reader.string(node, field: field) {
        case "true", "yes", "on": return true
        case "false", "no", "off": return false
        case let other: throw reader.error(at: node, field: field, "expected true or false, got '\(other)'")
        }
    }

    private static func isVariableName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || ("A"..."Z").contains(first) || ("a"..."z").contains(first) else { return false }
        return name.unicodeScalars.allSatisfy { $0 == "_" || ("A"..."Z").contains($0) || ("a"..."z").contains($0) || ("0"..."9").contains($0) }
    }

    private static func describe(_ seconds: Double) -> String {
        seconds < 1 ? "\(Int(seconds * 1000))ms" : "\(Int(seconds))s"
    }
}
