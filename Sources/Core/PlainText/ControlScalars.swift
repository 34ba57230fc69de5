/// Scalars that are not text to show: they drive a terminal (C0, DEL and C1 controls), break a
/// line (the line and paragraph separators) or reorder what a reader sees (the bidirectional
/// marks, embeddings, overrides and isolates). Text from elsewhere shows them as placeholders or
/// escapes; a name may hold none.
public enum ControlScalars {
    public static func contains(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// Whether `text` is in Normalization Form C (what the standard library composes, as
    /// swift-foundation's `precomposedStringWithCanonicalMapping` does): one spelling for each
    /// name, so `é` as one scalar and as `e` with a combining accent are not two files.
    public static func isNFC(_ text: String) -> Bool {
        text.utf8.allSatisfy { $0 < 0x80 } || text.utf8.elementsEqual(text._nfcCodeUnits)
    }
}
