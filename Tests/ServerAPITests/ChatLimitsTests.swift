import ServerAPI
import Testing

@Suite("Chat's rules shared by the server and the dashboard")
struct ChatLimitsTests {
    @Test("channel names: 1 to 32 of a-z, 0-9, _ and -, starting with a letter or digit", arguments: [
        ("general", true), ("a", true), ("9lives", true), ("on-call_2", true), (String(repeating: "x", count: 32), true),
        ("", false), ("-x", false), ("_x", false), ("General", false), ("a b", false), ("café", false), ("a/b", false),
        ("a\n", false), (String(repeating: "x", count: 33), false),
    ])
    func channelNames(name: String, valid: Bool) {
        #expect(ChatLimits.isChannelName(name) == valid)
    }
}
