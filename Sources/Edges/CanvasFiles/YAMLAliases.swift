import CYaml

/// Aliases (`*name`) have no use in layout and theme files, and they are how a small file grows
/// without end: aliases of aliased lists used as mapping keys ("billion laughs" through keys) are
/// expanded and hashed exponentially while the document is composed. So a file with any alias is
/// refused before it is composed, by libyaml's event parser, which reads the text once.
enum YAMLAliases {
    /// Where the first alias is (line and column from 1), or nil when there is none. Text that is
    /// not valid YAML also gives nil: composing it reports the problem.
    static func first(in text: String) -> (line: Int, column: Int)? {
        var bytes = Array(text.utf8)
        guard !bytes.isEmpty else { return nil }
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { return nil }
        defer { yaml_parser_delete(&parser) }
        return bytes.withUnsafeMutableBufferPointer { buffer in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            var event = yaml_event_t()
            while yaml_parser_parse(&parser, &event) == 1 {
                defer { yaml_event_delete(&event) }
                switch event.type {
                case YAML_ALIAS_EVENT: return (Int(event.start_mark.line) + 1, Int(event.start_mark.column) + 1)
                case YAML_STREAM_END_EVENT: return nil
                default: continue
                }
            }
            return nil
        }
    }
}
