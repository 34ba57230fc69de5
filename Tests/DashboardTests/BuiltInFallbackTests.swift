import CanvasCore
import CanvasFiles
import CanvasStyle
import CanvasUI
import Testing
@testable import termcanvas

/// The built-in layout and theme are used when the files cannot be found; they must not drift
/// from the files shipped in the repository.
@Suite("Built-in fallbacks match the shipped files")
struct BuiltInFallbackTests {
    @Test func theBuiltInDefaultLayoutIsLayoutsDefaultYaml() throws {
        let parsed = try LayoutFile.parse(try Repo.contents("layouts/default.yaml"), file: "layouts/default.yaml")
        #expect(DefaultLayout.make() == parsed)
    }

    @Test func theBuiltInDarkThemeIsThemesDarkYaml() throws {
        let parsed = try ThemeFile.parse(try Repo.contents("themes/dark.yaml"), file: "themes/dark.yaml")
        #expect(Theme.dark == parsed)
        for role in ThemeRole.allCases {
            #expect(Theme.dark[role] == parsed[role], "\(role)")
        }
    }

    @Test func theLibraryListsDarkEvenWithoutItsFile() async throws {
        let empty = PresetFiles(layoutFolders: [], themeFolders: [])
        let library = DashboardLibrary(store: try .inMemory(), presets: empty, adaptTheme: { $0 })
        #expect(await library.themeNames() == ["dark"])
        #expect(try await library.theme(named: "dark") == Theme.dark)
    }
}
