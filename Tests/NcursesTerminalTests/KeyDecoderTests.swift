import CanvasCore
import CNcursesw
@testable import NcursesTerminal
import Testing

/// Keys as ncurses reports them, turned into `Key`s.
struct KeyDecoderTests {
    @Test(arguments: [
        ("kLFT3", Key.alt(.left)),
        ("kRIT3", Key.alt(.right)),
        ("kUP5", Key(.up, .ctrl)),
        ("kDN2", Key.shift(.down)),
        ("kDC6", Key(.delete, [.ctrl, .shift])),
        ("kHOM7", Key(.home, [.ctrl, .alt])),
        ("kEND4", Key(.end, [.alt, .shift])),
        ("kPRV8", Key(.pageUp, [.ctrl, .alt, .shift])),
        ("kNXT5", Key(.pageDown, .ctrl)),
        ("kIC3", Key(.insert, .alt)),
    ])
    func extendedKeyNamesCarryModifiersInTheirSuffix(name: String, key: Key) {
        #expect(KeyDecoder.extendedKey(named: name) == key)
    }

    @Test(arguments: ["kLFT", "kLFT1", "kLFT9", "LFT3", "kFOO3", "kUP", "", "k", "kUPx", "KEY_LEFT", "kLFT35"])
    func otherNamesAreNotExtendedKeys(name: String) {
        #expect(KeyDecoder.extendedKey(named: name) == nil)
    }

    @Test func functionKeysAboveTwelveCarryModifiers() {
        #expect(KeyDecoder.function(KEY_F0 + 1) == Key(.function(1)))
        #expect(KeyDecoder.function(KEY_F0 + 12) == Key(.function(12)))
        #expect(KeyDecoder.function(KEY_F0 + 13) == Key(.function(1), .shift))
        #expect(KeyDecoder.function(KEY_F0 + 24) == Key(.function(12), .shift))
        #expect(KeyDecoder.function(KEY_F0 + 25) == Key(.function(1), .ctrl))
        #expect(KeyDecoder.function(KEY_F0 + 37) == Key(.function(1), [.ctrl, .shift]))
        #expect(KeyDecoder.function(KEY_F0 + 48) == Key(.function(12), [.ctrl, .shift]))
    }

    @Test func everyFunctionKeyDecodes() {
        for n in Int32(1)...48 {
            let key = KeyDecoder.function(KEY_F0 + n)
            guard case .function(let number)? = key?.code else {
                Issue.record("F\(n) decoded as \(String(describing: key))")
                continue
            }
            #expect(number == Int((n - 1) % 12 + 1))
        }
    }

    @Test func namedKeyCodes() {
        let expected: [(Int32, Key)] = [
            (KEY_UP, .up), (KEY_DOWN, .down), (KEY_LEFT, .left), (KEY_RIGHT, .right),
            (KEY_SLEFT, .shift(.left)), (KEY_SRIGHT, .shift(.right)), (KEY_SR, .shift(.up)), (KEY_SF, .shift(.down)),
            (KEY_HOME, Key(.home)), (KEY_END, Key(.end)), (KEY_SHOME, .shift(.home)), (KEY_SEND, .shift(.end)),
            (KEY_PPAGE, Key(.pageUp)), (KEY_NPAGE, Key(.pageDown)), (KEY_DC, Key(.delete)), (KEY_IC, Key(.insert)),
            (KEY_BACKSPACE, Key(.backspace)), (KEY_ENTER, .enter), (KEY_BTAB, .backTab),
        ]
        for (code, key) in expected {
            #expect(KeyDecoder.function(code) == key, "code \(code)")
        }
    }

    @Test func unknownKeyCodesDecodeToNothing() {
        #expect(KeyDecoder.function(KEY_MOUSE) == nil)
        #expect(KeyDecoder.function(KEY_F0 + 49) == nil)
    }

    @Test func characters() {
        #expect(KeyDecoder.character(9) == .tab)
        #expect(KeyDecoder.character(10) == .ctrl("j"))
        #expect(KeyDecoder.character(13) == .enter)
        #expect(KeyDecoder.character(27) == .escape)
        #expect(KeyDecoder.character(8) == Key(.backspace))
        #expect(KeyDecoder.character(127) == Key(.backspace))
        #expect(KeyDecoder.character(0) == .ctrl(" "))
        #expect(KeyDecoder.character(1) == .ctrl("a"))
        #expect(KeyDecoder.character(5) == .ctrl("e"))
        #expect(KeyDecoder.character(26) == .ctrl("z"))
        #expect(KeyDecoder.character(28) == nil)
        #expect(KeyDecoder.character(31) == nil)
        #expect(KeyDecoder.character(UInt32(UInt8(ascii: "q"))) == .char("q"))
        #expect(KeyDecoder.character(0xE9) == .char("é"))
        #expect(KeyDecoder.character(0x65E5) == .char("日"))
        #expect(KeyDecoder.character(0xD800) == nil)  // a lone surrogate is no character
    }
}
