import FoundationEssentials

/// Reads and writes the protocol's lines: one JSON-RPC 2.0 object per line, UTF-8.
public enum MicroAppCodec {
    /// The line that carries `message`, newline included.
    public static func encode(_ message: HostToApp) -> [UInt8] {
        line(message.rpc.json)
    }

    /// Reads one line from an app (without its newline).
    public static func decode(_ line: [UInt8]) throws(ProtocolError) -> AppToHost {
        try AppToHost(try RPCMessage(json: try json(line)))
    }

    /// The JSON-RPC error answer for a request that could not be read, when it had an id.
    public static func failure(for line: [UInt8], _ error: ProtocolError) -> HostToApp? {
        guard let id = (try? json(line))?["id"].flatMap(RPCID.init) else { return nil }
        switch error {
        case .invalidParams: return .failure(id: id, RPCError(code: RPCError.invalidParams, message: error.description))
        case .notRPC: return .failure(id: id, RPCError(code: RPCError.invalidRequest, message: error.description))
        case .notJSON: return nil
        }
    }

    static func json(_ line: [UInt8]) throws(ProtocolError) -> JSONValue {
        do {
            return try JSONDecoder().decode(JSONValue.self, from: Data(line))
        } catch {
            // In our words, with what the line began with (its first 32 bytes: a character can be
            // kilobytes), never the decoder's text.
            let beginning = String(decoding: line.prefix(32), as: UTF8.self)
            throw .notJSON("each line must be one JSON-RPC message, and this one begins “\(beginning)\(line.count > 32 ? "…" : "")”")
        }
    }

    static func line(_ json: JSONValue) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding a JSONValue cannot fail: it holds only JSON's own types (non-finite numbers
        // are never put in one by the host).
        var bytes = [UInt8]((try? encoder.encode(json)) ?? Data("null".utf8))
        bytes.append(0x0A)
        return bytes
    }
}
