import Foundation
import ModelClient
import Testing

@Suite("ModelSettings: ai.yaml, flags over it, the key from the environment")
struct ModelSettingsTests {
    static func file(_ text: String?) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("tc-ai-\(UUID().uuidString.prefix(8)).yaml")
        if let text { try text.write(to: url, atomically: true, encoding: .utf8) }
        return url
    }

    @Test func theFileThenFlagsMakeTheSettings() throws {
        let url = try Self.file("baseURL: https://api.cerebras.ai/v1/\nmodel: llama-3.3-70b\nkeyVariable: CEREBRAS_API_KEY\n")
        defer { try? FileManager.default.removeItem(at: url) }
        let fields = try ModelSettings.Fields.read(url).overridden(by: ModelSettings.Fields(model: "qwen-3-32b"))
        let settings = try ModelSettings(fields, file: url)
        #expect(settings == ModelSettings(baseURL: "https://api.cerebras.ai/v1", model: "qwen-3-32b", keyVariable: "CEREBRAS_API_KEY"))
        #expect(try settings.key(in: ["CEREBRAS_API_KEY": "k"]) == "k")
        #expect(throws: ModelError.noKey(variable: "CEREBRAS_API_KEY")) { try settings.key(in: [:]) }
        #expect(ModelError.noKey(variable: "CEREBRAS_API_KEY").description.contains("CEREBRAS_API_KEY"))
    }

    /// Issue 55, item 15: how long the model may stay silent is the user's to set.
    @Test func theTimeoutIsSecondsOrMinutesWithinBounds() throws {
        let url = try Self.file("baseURL: http://127.0.0.1:4000/v1\nmodel: local\ntimeout: 3m\n")
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(try ModelSettings(ModelSettings.Fields.read(url), file: url).timeout == .seconds(180))
        for (text, seconds) in [("180", 180), ("45s", 45), ("3600", 3600)] {
            let fields = ModelSettings.Fields(baseURL: "http://x/v1", model: "m", timeout: text)
            #expect(try ModelSettings(fields, file: url).timeout == .seconds(seconds))
        }
        for text in ["0", "3601", "61m", "-5", "soon", "99999999999999999999"] {
            let fields = ModelSettings.Fields(baseURL: "http://x/v1", model: "m", timeout: text)
            let error = #expect(throws: ModelError.self) { try ModelSettings(fields, file: url) }
            #expect(error?.description.contains("timeout must be seconds from 1 to 3600") == true, "\(text)")
        }
    }

    @Test func aMissingFileIsNoFieldsAndTheErrorNamesWhatToSet() throws {
        let url = try Self.file(nil)
        let fields = try ModelSettings.Fields.read(url)
        #expect(fields == ModelSettings.Fields())
        let error = #expect(throws: ModelError.self) { try ModelSettings(fields, file: url) }
        #expect(error?.description.contains("baseURL") == true)
        #expect(error?.description.contains("--base-url") == true)
    }

    @Test func aKeyFileIsReadAtEachUseAndMustBePrivate() throws {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("tc-home-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: home) }
        let url = try Self.file("baseURL: https://api.example.com/v1\nmodel: m\nkeyVariable: EXAMPLE_KEY\nkeyFile: ~/ai.key\n")
        defer { try? FileManager.default.removeItem(at: url) }
        let settings = try ModelSettings(try ModelSettings.Fields.read(url), file: url)
        let environment = ["HOME": home.path]
        #expect(throws: ModelError.settings("keyFile ~/ai.key (in ai.yaml) is not a file")) { try settings.key(in: environment) }
        // Written after the settings were read: found at the next use, no restart.
        let keyFile = home.appendingPathComponent("ai.key")
        _ = FileManager.default.createFile(atPath: keyFile.path, contents: Data("sk-123\n".utf8), attributes: [.posixPermissions: 0o644])
        #expect(throws: ModelError.settings("keyFile ~/ai.key (in ai.yaml) must be yours and readable by you only: chmod 600 ~/ai.key")) {
            try settings.key(in: environment)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: keyFile.path)
        #expect(try settings.key(in: environment) == "sk-123")
        // The variable, when set, comes first.
        #expect(try settings.key(in: environment.merging(["EXAMPLE_KEY": "sk-env"]) { $1 }) == "sk-env")
    }

    @Test func anEndpointWithoutAKeyVariableNeedsNoKey() throws {
        let url = try Self.file("baseURL: http://127.0.0.1:8080/v1\nmodel: local\n")
        defer { try? FileManager.default.removeItem(at: url) }
        let settings = try ModelSettings(try ModelSettings.Fields.read(url), file: url)
        #expect(try settings.key(in: [:]) == nil)
    }

    /// As every TermCanvas file: a folder, a file too large to be settings, or one not UTF-8 is
    /// refused in words that say which, before more than its size is read.
    @Test func aFileThatCannotBeSettingsSaysWhy() throws {
        let folder = try Self.file(nil)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(throws: ModelError.settings("\(folder.path): is a folder, not a file")) { try ModelSettings.Fields.read(folder) }

        let large = try Self.file("baseURL: http://h\nmodel: m\n# " + String(repeating: "x", count: 2 << 20) + "\n")
        defer { try? FileManager.default.removeItem(at: large) }
        let refused = #expect(throws: ModelError.self) { try ModelSettings.Fields.read(large) }
        #expect(refused?.description.contains("KiB") == true, "\(String(describing: refused))")

        let binary = try Self.file(nil)
        try Data([0x62, 0x61, 0xFF, 0xFE]).write(to: binary)
        defer { try? FileManager.default.removeItem(at: binary) }
        #expect(throws: ModelError.settings("\(binary.path): is not UTF-8 text")) { try ModelSettings.Fields.read(binary) }
    }

    @Test(arguments: [
        ("baseURL: [1, 2]\nmodel: m\n", "baseURL"),
        ("baseURL: ftp://host\nmodel: m\n", "http://"),
        ("baseURL: http://h\n", "model"),
        ("baseURL: http://h\nmodel: m\nkeyVariable: \"sk-abc def\"\n", "keyVariable"),
        ("- not\n- a map\n", "baseURL, model, keyVariable, keyFile and timeout"),
    ])
    func badFilesSayWhichField(text: String, named: String) throws {
        let url = try Self.file(text)
        defer { try? FileManager.default.removeItem(at: url) }
        let error = #expect(throws: ModelError.self) { try ModelSettings(try ModelSettings.Fields.read(url), file: url) }
        #expect(error?.description.contains(named) == true, "\(String(describing: error))")
    }
}
