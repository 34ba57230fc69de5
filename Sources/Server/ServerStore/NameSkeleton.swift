import Foundation

/// What a name looks like, as Unicode's UTS #39 says (section 4, its skeleton): names with one
/// skeleton look alike (`dave` and `dаve`, whose `а` is Cyrillic), so of two users only one may
/// have it. The skeleton is the name decomposed (NFD), each character replaced by its prototype in
/// Unicode's confusables.txt (`Resources/confusables.txt`, version 14.0.0), and decomposed again.
enum NameSkeleton {
    static func of(_ name: String) -> String {
        var mapped = String.UnicodeScalarView()
        for scalar in name.decomposedStringWithCanonicalMapping.unicodeScalars {
            if let prototype = prototypes[scalar.value] { mapped.append(contentsOf: prototype) } else { mapped.append(scalar) }
        }
        return String(mapped).decomposedStringWithCanonicalMapping
    }

    /// The one of `names` that looks like `name` but is not it, if any.
    static func lookAlike(of name: String, among names: [String]) -> String? {
        let skeleton = of(name)
        return names.first { $0 != name && of($0) == skeleton }
    }

    /// Each confusable code point's prototype, read once from the resource's `SOURCE;PROTOTYPE` lines.
    private static let prototypes: [UInt32: [Unicode.Scalar]] = {
        var table: [UInt32: [Unicode.Scalar]] = [:]
        for line in String(decoding: PackageResources.confusables_txt, as: UTF8.self).split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: ";")
            guard parts.count == 2, let source = UInt32(parts[0], radix: 16) else { continue }
            table[source] = parts[1].split(separator: " ").compactMap { UInt32($0, radix: 16).flatMap(Unicode.Scalar.init) }
        }
        return table
    }()
}
