import CanvasCore
import CanvasFiles
import CanvasStyle
import CanvasUI
import CommandSupport
import Foundation
import LayoutStore
@testable import termcanvas
import Testing

/// Ctrl-T: the themes, the highlighted one previewed live; Enter keeps it, Esc goes back.
@MainActor
@Suite("Ctrl-T opens the theme picker")
struct ThemePickerTests {
    /// The status bar's mode badge, first cell of the bottom row: styled with `.statusMode`.
    func badgeStyle(_ rig: Rig) -> Style {
        rig.host.compose()[0, Fixed.size.height - 1].style
    }

    /// The focused pane's top-left corner: styled with `.borderFocused`.
    func focusedBorderStyle(_ rig: Rig) -> Style {
        rig.host.compose()[0, 0].style
    }

    func highContrast() throws -> Theme {
        try #require(try Repo.presets.theme(named: "high-contrast"))
    }

    func openPicker(_ rig: Rig) async throws {
        rig.press(.ctrl("t"))
        #expect(rig.text.contains("Theme"))
        let messages = try await rig.deliver()
        #expect(messages.map(\.kind) == ["themesListed"])
    }

    func themePicker(_ rig: Rig) -> ThemePicker? {
        guard let picker = rig.host.overlay as? ThemePicker else { return nil }
        return picker
    }

    @Test func listsTheThemesWithTheCurrentOneHighlighted() async throws {
        let rig = try Rig()
        rig.press(.ctrl("t"))
        #expect(rig.text.contains("Loading…"))
        try await rig.deliver()
        #expect(themePicker(rig)?.names == ["dark", "high-contrast", "light"])
        #expect(themePicker(rig)?.selected == 0)
        let rows = rig.screen
        for name in ["dark", "high-contrast", "light"] {
            #expect(rows.contains { $0.contains("┃ \(name) ") }, "\(name) is listed")
        }
        #expect(rig.text.contains("↑↓ preview, Enter keeps, Esc goes back."))
        #expect(rig.statusBar.hasPrefix(" OPEN "))
    }

    @Test func theCurrentThemeIsHighlightedWhenItIsNotTheFirst() async throws {
        let light = try #require(try Repo.presets.theme(named: "light"))
        let rig = try Rig(theme: light)
        try await openPicker(rig)
        #expect(themePicker(rig)?.selected == 2)
    }

    @Test func downPreviewsTheNextThemeLive() async throws {
        let rig = try Rig()
        let darkBadge = badgeStyle(rig)
        let darkBorder = focusedBorderStyle(rig)
        #expect(darkBadge == Theme.dark[.statusMode])
        #expect(darkBorder == Theme.dark[.borderFocused])
        try await openPicker(rig)

        let messages = try await rig.press(.down, expecting: 1)
        #expect(messages.map(\.kind) == ["themeLoaded"])
        #expect(themePicker(rig)?.selected == 1)
        #expect(rig.host.theme.name == "high-contrast")
        #expect(badgeStyle(rig) == (try highContrast())[.statusMode])
        #expect(badgeStyle(rig) != darkBadge)
        #expect(focusedBorderStyle(rig) != darkBorder)

        // Down again previews light; Down at the end stays there.
        try await rig.press(.down, expecting: 1)
        #expect(rig.host.theme.name == "light")
        rig.press(.down)
        #expect(themePicker(rig)?.selected == 2)
        try await rig.deliver()
        #expect(rig.host.theme.name == "light")
        // Up goes back.
        try await rig.press(.up, expecting: 1)
        #expect(rig.host.theme.name == "high-contrast")
    }

    @Test func escRestoresTheOriginalTheme() async throws {
        let rig = try Rig()
        let before = rig.host.compose()
        try await openPicker(rig)
        try await rig.press(.down, expecting: 1)
        #expect(rig.host.theme.name == "high-contrast")
        rig.press(.escape)
        #expect(rig.host.overlay == nil && rig.host.mode == .normal)
        #expect(rig.host.theme == Theme.dark)
        #expect(rig.host.compose() == before, "the screen is as it was before the picker")
        await rig.settle()
        #expect(try rig.store.preference(DashboardLibrary.themePreference) == nil)
    }

    @Test func enterKeepsThePreviewedThemeAndRemembersIt() async throws {
        let rig = try Rig()
        try await openPicker(rig)
        try await rig.press(.down, expecting: 1)
        rig.press(.enter)
        #expect(rig.host.overlay == nil && rig.host.mode == .normal)
        #expect(rig.host.theme == (try highContrast()))
        #expect(badgeStyle(rig) == (try highContrast())[.statusMode])
        await rig.settle()
        #expect(try rig.store.preference(DashboardLibrary.themePreference) == "high-contrast")
        // A later start picks it up.
        var composition = Composition(paths: Paths(environment: ["HOME": rig.directory.url.path]), logger: Fixed.logger)
        #expect(try composition.startingTheme(option: nil, library: rig.library) == (try highContrast()))
    }

    @Test func thePaletteChoosesAThemeByNameAndRemembersIt() async throws {
        let rig = try Rig()
        rig.press(.ctrl("p"))
        let listed = try await rig.deliver()  // the layouts' and themes' names, for its entries
        #expect(listed.map(\.kind) == ["namesListed"])
        rig.type("theme: high")
        #expect((rig.host.overlay as? PaletteOverlay)?.items(rig.host.overlayContext).first?.title == "theme: high-contrast")
        let chosen = try await rig.press(.enter, expecting: 1)
        #expect(chosen.map(\.kind) == ["themeChosen"])
        #expect(rig.host.overlay == nil)
        #expect(rig.host.theme == (try highContrast()))
        await rig.settle()
        #expect(try rig.store.preference(DashboardLibrary.themePreference) == "high-contrast")
    }

    @Test func aPreviewArrivingAfterTheHighlightMovedOnDoesNotWin() async throws {
        // Previews are read concurrently, so they can come back in either order; the app loop
        // hands them over as they come. The screen must show the highlighted theme either way.
        let rig = try Rig()
        try await openPicker(rig)
        rig.press(.down, .down)
        let messages = try await rig.inbox.take(2)
        for message in messages.reversed() { rig.host.perform(rig.host.update(message)) }
        #expect(themePicker(rig)?.selected == 2)
        #expect(rig.host.theme.name == "light")
        rig.press(.enter)
        await rig.settle()
        #expect(try rig.store.preference(DashboardLibrary.themePreference) == "light")
    }

    @Test func aThemeIsRememberedByItsFileName() async throws {
        // A user's copy of dark.yaml with other colours, its `name:` line left as it was.
        let directory = try TemporaryDirectory()
        let folder = directory.url.appendingPathComponent("themes")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let copy = try Repo.contents("themes/dark.yaml").replacingOccurrences(of: "text: { fg: 252 }", with: "text: { fg: 229 }")
        try Data(copy.utf8).write(to: folder.appendingPathComponent("mine.yaml"))
        let presets = PresetFiles(layoutFolders: [Repo.layouts], themeFolders: [folder, Repo.themes])

        let rig = try Rig(directory: directory, presets: presets)
        try await openPicker(rig)
        #expect(themePicker(rig)?.names == ["dark", "high-contrast", "light", "mine"])
        try await rig.press(.down, expecting: 1)
        try await rig.press(.down, expecting: 1)
        try await rig.press(.down, expecting: 1)
        #expect(rig.host.theme.name == "mine")
        #expect(rig.host.theme[.text] == Style(foreground: .palette(229)))
        rig.press(.enter)
        await rig.settle()
        #expect(try rig.store.preference(DashboardLibrary.themePreference) == "mine")

        // Opened again, the picker highlights it; the next start uses it.
        try await openPicker(rig)
        #expect(themePicker(rig)?.selected == 3)
        var composition = Composition(paths: Paths(environment: ["HOME": directory.url.path]), logger: Fixed.logger)
        #expect(try composition.startingTheme(option: nil, library: rig.library) == rig.host.theme)
        #expect(composition.notices.isEmpty)
    }

    @Test func aThemeLoadedAfterThePickerClosedIsIgnored() async throws {
        let rig = try Rig()
        try await openPicker(rig)
        rig.press(.down, .escape)
        try await rig.deliver()
        #expect(rig.host.theme == Theme.dark)
    }
}
