/// How a layout stands to the preset it came from: the preset as its file has it, or changed
/// from it. A preset stays a preset: its first change is kept under a name of the user's own
/// (`default (changed)`), and the preset's name opens the file again.
public struct PresetOrigin: Hashable, Sendable {
    /// The preset's name.
    public let preset: String
    /// Where the first change to the preset as its file has it goes; nil once it changed.
    public let changesKeptAs: String?

    public init(preset: String, changesKeptAs: String?) {
        self.preset = preset
        self.changesKeptAs = changesKeptAs
    }

    public var isUnchanged: Bool { changesKeptAs != nil }

    /// The preset a layout named `name` keeps the changes of, by the names `changedName` gives:
    /// `planner` for `planner (changed)` or `planner (changed 2)`.
    public static func preset(changedAs name: String) -> String? {
        guard name.hasSuffix(")") else { return nil }
        let inside = name.dropLast()
        if inside.hasSuffix(" (changed") { return String(inside.dropLast(9)) }
        let digits = inside.reversed().prefix { $0.isASCII && $0.isNumber }
        let rest = inside.dropLast(digits.count)
        guard digits.count <= 9, let number = Int(String(digits.reversed())), number >= 2, rest.hasSuffix(" (changed ") else { return nil }
        return String(rest.dropLast(10))
    }

    /// The first of `default (changed)`, `default (changed 2)`, … that `taken` says is free.
    public static func changedName(of preset: String, taken: (String) throws -> Bool) rethrows -> String {
        var name = "\(preset) (changed)"
        var number = 2
        while try taken(name) {
            name = "\(preset) (changed \(number))"
            number += 1
        }
        return name
    }
}
