import CanvasCore
import Testing

@Suite("Keys: descriptions, text and directions")
struct KeyTests {
    @Test(arguments: [
        (Key.ctrl("e"), "Ctrl-E"),
        (Key.alt(.char("x")), "Alt+x"),
        (Key.alt(.function(3)), "Alt+F3"),
        (Key.shift(.tab), "Shift+Tab"),
        (Key.backTab, "Shift-Tab"),
        (Key(.char("q"), [.ctrl, .alt]), "Ctrl-Alt+Q"),
        (Key(.char("z"), [.ctrl, .alt, .shift]), "Ctrl-Alt+Shift+Z"),
        (Key(.pageDown, .shift), "Shift+PgDn"),
        (Key.char(" "), "Space"),
        (Key.ctrl(" "), "Ctrl-Space"),
        (Key.char("a"), "a"),
        (Key.char("A"), "A"),
        (Key.enter, "Enter"),
        (Key.tab, "Tab"),
        (Key.escape, "Esc"),
        (Key(.backspace), "Backspace"),
        (Key(.delete), "Delete"),
        (Key(.insert), "Insert"),
        (Key.up, "↑"),
        (Key.down, "↓"),
        (Key.left, "←"),
        (Key.right, "→"),
        (Key(.home), "Home"),
        (Key(.end), "End"),
        (Key(.pageUp), "PgUp"),
        (Key(.function(5)), "F5"),
        (Key(.function(12)), "F12"),
    ])
    func description(key: Key, expected: String) {
        #expect(key.description == expected)
    }

    @Test func textIsOnlyPlainCharacters() {
        #expect(Key.char("a").text == "a")
        #expect(Key.char("A", .shift).text == "A")
        #expect(Key.ctrl("a").text == nil)
        #expect(Key.alt(.char("a")).text == nil)
        #expect(Key.enter.text == nil)
    }

    @Test func ctrlKeysEqualTheirSpelledOutForm() {
        #expect(Key.ctrl("e") == Key(.char("e"), .ctrl))
        #expect(Key.ctrl("e") != Key.ctrl("E"))
        #expect(Key.alt(.left) == Key(.left, .alt))
    }
}

@Suite("Key names, as key maps write them")
struct KeyNameTests {
    @Test(arguments: [
        ("ctrl+j", Key.ctrl("j")), ("CTRL+J", .ctrl("j")), ("alt+1", .alt(.char("1"))), ("shift+up", .shift(.up)),
        ("f1", Key(.function(1))), ("F12", Key(.function(12))), ("?", .char("?")), ("space", .char(" ")), ("enter", .enter),
        ("escape", .escape), ("esc", .escape), ("backtab", .backTab), ("shift+tab", .backTab), ("ctrl+alt+q", Key(.char("q"), [.ctrl, .alt])),
        ("+", .char("+")), ("ctrl++", .ctrl("+")), ("pagedown", Key(.pageDown)), ("Q", .char("Q")),
    ])
    func readsAName(_ name: String, _ key: Key) {
        #expect(Key(name: name) == key)
    }

    @Test(arguments: ["", "hyper+j", "ctrl+", "jj", "f13", "f0", "ctrl+space+x", " ", "\u{1b}"])
    func refusesWhatNoKeyIs(_ name: String) {
        #expect(Key(name: name) == nil)
    }

    @Test func everyNameReadsBack() {
        let codes: [KeyCode] = [.char("a"), .char(" "), .enter, .tab, .backTab, .escape, .backspace, .delete, .insert, .up, .down, .left,
                                .right, .home, .end, .pageUp, .pageDown, .function(5)]
        for code in codes {
            for modifiers: Modifiers in [[], .ctrl, .alt, .shift, [.ctrl, .alt]] {
                let key = Key(code, modifiers).normalized
                #expect(Key(name: key.name) == key, "\(key.name)")
            }
        }
    }
}
