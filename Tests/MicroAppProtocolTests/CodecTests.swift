import MicroAppProtocol
import Testing

@Suite("Codec: JSON-RPC 2.0 lines in both directions")
struct CodecTests {
    func decode(_ text: String) throws -> AppToHost {
        try MicroAppCodec.decode(Array(text.utf8))
    }

    func encoded(_ message: HostToApp) -> String {
        String(decoding: MicroAppCodec.encode(message), as: UTF8.self)
    }

    @Test func hostMessagesAreOneSortedLineEach() {
        #expect(encoded(.resize(ViewSize(width: 40, height: 12)))
            == #"{"jsonrpc":"2.0","method":"resize","params":{"height":12,"width":40}}"# + "\n")
        #expect(encoded(.key(name: "ctrl+j", text: nil)) == #"{"jsonrpc":"2.0","method":"key","params":{"key":"ctrl+j","text":null}}"# + "\n")
        #expect(encoded(.key(name: "a", text: "a")) == #"{"jsonrpc":"2.0","method":"key","params":{"key":"a","text":"a"}}"# + "\n")
        #expect(encoded(.focus(true)) == #"{"jsonrpc":"2.0","method":"focus","params":{"focused":true}}"# + "\n")
        #expect(encoded(.visible(false)) == #"{"jsonrpc":"2.0","method":"visible","params":{"visible":false}}"# + "\n")
        #expect(encoded(.inputSubmit(id: "q", value: "é\n")) == #"{"jsonrpc":"2.0","method":"input.submit","params":{"id":"q","value":"é\n"}}"# + "\n")
        #expect(encoded(.shutdown(id: .number(2))) == #"{"id":2,"jsonrpc":"2.0","method":"shutdown"}"# + "\n")
        #expect(encoded(.exit) == #"{"jsonrpc":"2.0","method":"exit"}"# + "\n")
        #expect(encoded(.httpResult(id: .string("a"), HTTPResult(status: 200, body: .object(["items": .array([])]))))
            == #"{"id":"a","jsonrpc":"2.0","result":{"body":{"items":[]},"status":200}}"# + "\n")
        #expect(encoded(.failure(id: .number(7), RPCError(code: RPCError.notPermitted, message: "not permitted: /x")))
            == #"{"error":{"code":-32001,"message":"not permitted: /x"},"id":7,"jsonrpc":"2.0"}"# + "\n")
    }

    @Test func initializeCarriesEverythingTheAppNeeds() throws {
        let parameters = InitializeParams(
            instance: "sysmon-3", appID: "sysmon", appVersion: "1.0.0", size: ViewSize(width: 30, height: 8), focused: false,
            visible: true, roles: ["text", "muted"], settings: .object(["threshold": "90"]),
            state: .object(["sort": "cpu"]),
            permissions: Permissions(publish: ["sysmon.cpu.high"], state: true, machine: MachineAccess(read: ["/proc"])),
            events: [BusEventParams(name: "calendar.date.selected", source: "pane:1", time: "2026-11-26T09:00:00.000Z", summary: "2026-11-26",
                                    payload: .object(["date": "2026-11-26"]))])
        let line = encoded(.initialize(id: .number(1), parameters))
        #expect(line == #"{"id":1,"jsonrpc":"2.0","method":"initialize","params":{"app":{"id":"sysmon","version":"1.0.0"},"#
            + #""events":[{"name":"calendar.date.selected","payload":{"date":"2026-11-26"},"source":"pane:1","summary":"2026-11-26","#
            + #""time":"2026-11-26T09:00:00.000Z"}],"focused":false,"#
            + #""instance":"sysmon-3","permissions":{"http":[],"machine":{"files":{"read":["/proc"],"write":[]},"network":{"connect":[]},"#
            + #""run":[]},"publish":["sysmon.cpu.high"],"state":true,"subscribe":[]},"protocol":"1.1","#
            + #""settings":{"threshold":"90"},"size":{"height":8,"width":30},"state":{"sort":"cpu"},"theme":{"roles":["text","muted"]},"#
            + #""visible":true}}"# + "\n")
    }

    @Test func appMessagesAreRead() throws {
        #expect(try decode(#"{"jsonrpc":"2.0","method":"view","params":{"revision":3,"root":{"type":"text","text":"hi"}}}"#)
            == .view(ViewUpdate(revision: 3, root: .text("hi", role: nil, wrap: true))))
        #expect(try decode(#"{"jsonrpc":"2.0","method":"bus.publish","params":{"name":"a.b.c","summary":"s","payload":{"n":1}}}"#)
            == .publish(Publish(name: "a.b.c", summary: "s", payload: .object(["n": 1]))))
        #expect(try decode(#"{"jsonrpc":"2.0","id":"x","method":"http","params":{"method":"get","path":"/api/todo/items"}}"#)
            == .http(id: .string("x"), HTTPRequest(method: "GET", path: "/api/todo/items", body: nil)))
        #expect(try decode(#"{"jsonrpc":"2.0","method":"state.save","params":{"state":[1,true,null]}}"#)
            == .stateSave(.array([1, true, .null])))
        #expect(try decode(#"{"jsonrpc":"2.0","method":"log","params":{"level":"warning","message":"careful"}}"#)
            == .log(LogEntry(level: "warning", message: "careful")))
        #expect(try decode(#"{"jsonrpc":"2.0","id":1,"result":{"protocol":"1.0"}}"#) == .response(id: .number(1), result: .object(["protocol": "1.0"])))
        #expect(try decode(#"{"jsonrpc":"2.0","id":2,"error":{"code":-32000,"message":"no"}}"#)
            == .failure(id: .number(2), RPCError(code: -32000, message: "no")))
    }

    @Test func unknownMethodsAndFieldsAreIgnoredOrAnswered() throws {
        #expect(try decode(#"{"jsonrpc":"2.0","method":"teleport","params":{}}"#) == .unknownNotification(method: "teleport"))
        #expect(try decode(#"{"jsonrpc":"2.0","id":9,"method":"teleport"}"#) == .unknownRequest(id: .number(9), method: "teleport"))
        #expect(try decode(#"{"jsonrpc":"2.0","method":"log","extra":[1,2],"params":{"message":"m","colour":"red"}}"#)
            == .log(LogEntry(level: "info", message: "m")))
    }

    @Test func badLinesSayWhatIsWrong() {
        // In our words, with the line's first 32 bytes: never the decoder's own text.
        #expect(throws: ProtocolError.notJSON("each line must be one JSON-RPC message, and this one begins “not json”")) { try decode("not json") }
        #expect(throws: ProtocolError.notJSON("each line must be one JSON-RPC message, and this one begins “\(String(repeating: "é", count: 16))…”")) {
            try decode(String(repeating: "é", count: 100))
        }
        #expect(throws: ProtocolError.self) { try decode("[1,2]") }
        #expect(throws: ProtocolError.notRPC("\"jsonrpc\" must be \"2.0\"")) { try decode(#"{"method":"view"}"#) }
        #expect(throws: ProtocolError.invalidParams(method: "view", "\"root\" is missing")) {
            try decode(#"{"jsonrpc":"2.0","method":"view","params":{}}"#)
        }
        #expect(throws: ProtocolError.self) { try decode(#"{"jsonrpc":"2.0","id":1,"method":"http","params":{"method":"GET","path":"api"}}"#) }
        #expect(throws: ProtocolError.self) { try decode(#"{"jsonrpc":"2.0","id":1,"method":"http","params":{"method":"BREW","path":"/a"}}"#) }
    }

    @Test func anUnreadableRequestIsAnsweredWithItsId() throws {
        let line = Array(#"{"jsonrpc":"2.0","id":4,"method":"http","params":{"path":"/a"}}"#.utf8)
        do {
            _ = try MicroAppCodec.decode(line)
            Issue.record("expected an error")
        } catch {
            guard case .failure(.number(4), let rpc)? = MicroAppCodec.failure(for: line, error) else {
                Issue.record("expected an error answer")
                return
            }
            #expect(rpc.code == RPCError.invalidParams)
        }
    }

    @Test func deeplyNestedJSONDoesNotCrash() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: ProtocolError.self) { try decode(deep) }
        let deepView = #"{"jsonrpc":"2.0","method":"view","params":{"root":"# + String(repeating: #"{"type":"stack","children":["#, count: 200)
            + #"{"type":"text","text":"x"}"# + String(repeating: "]}", count: 200) + "}}"
        guard case .view(let view)? = try? decode(deepView) else {
            Issue.record("a deep view is read, its depth cut")
            return
        }
        var depth = 0
        var node = view.root
        while case .stack(_, let children) = node, let first = children.first {
            depth += 1
            node = first.node
        }
        #expect(depth == ViewNode.maximumDepth)
        #expect(node == .unknown(type: "stack"))
    }

    @Test func versionsOfTheSameMajorTalk() {
        #expect(ProtocolVersion("1")?.canTalk(to: .current) == true)
        #expect(ProtocolVersion("1.7")?.canTalk(to: .current) == true)
        #expect(ProtocolVersion("2.0")?.canTalk(to: .current) == false)
        #expect(ProtocolVersion("one") == nil)
        #expect(ProtocolVersion("1.2.3") == nil)
        #expect(InitializeResult(json: .object(["protocol": .number(1)])).version == ProtocolVersion(major: 1, minor: 0))
    }
}

/// The JSON limits the protocol document states (section 2), so that a change to them is seen.
@Suite("Codec: JSON's own limits, as documented")
struct CodecJSONLimitTests {
    static func readable(_ extra: String) -> Bool {
        (try? MicroAppCodec.decode(Array(#"{"jsonrpc":"2.0","method":"log","params":{"message":"x","extra":\#(extra)}}"#.utf8))) != nil
    }

    @Test func nestingStopsAt512Levels() {
        // The message and its params are two levels.
        #expect(Self.readable(String(repeating: "[", count: 510) + String(repeating: "]", count: 510)))
        #expect(!Self.readable(String(repeating: "[", count: 511) + String(repeating: "]", count: 511)))
    }

    @Test func aNumberADoubleCannotHoldMakesTheLineUnreadable() {
        #expect(Self.readable("1.7976931348623157e308"))
        #expect(Self.readable("123456789012345678901234567890"))
        #expect(!Self.readable("1e400"))
        #expect(!Self.readable("-1.8e308"))
        #expect(!Self.readable("1e-400"))
    }

    /// Issue 55, item 12: what an author hears of a notification no host knows.
    @Test func anUnknownNotificationIsNamedWithTheOneMeant() {
        #expect(AppToHost.warning(forUnknown: "publish") == "`publish` is not a notification of protocol 1.1: did you mean `bus.publish`?")
        #expect(AppToHost.warning(forUnknown: "veiw").hasSuffix("did you mean `view`?"))
        #expect(AppToHost.warning(forUnknown: "state.sav").hasSuffix("did you mean `state.save`?"))
        #expect(AppToHost.warning(forUnknown: "frobnicate").hasSuffix("(it sends view, bus.publish, state.save and log)"))
        #expect(AppToHost.warning(forUnknown: String(repeating: "x", count: 500)).count <= 150, "the name cut to 60 characters")
    }
}
