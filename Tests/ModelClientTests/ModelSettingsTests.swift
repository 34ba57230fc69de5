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

    @Test func aMissingFileIsNoFieldsAndTheErrorNamesWhatToSet() throws {
        let url = try Self.file(nil)
        let fields = try ModelSettings.Fields.read(url)
        #expect(fields == ModelSettings.Fields())
        let error = #expect(throws: ModelError.self) { try ModelSettings(fields, file: url) }
        #expect(error?.description.contains("baseURL") == true)
        #expect(error?.description.contains("--base-url") == true)
    }

    @Test func anEndpointWithoutAKeyVariableNeedsNoKey() throws {
        let url = try Self.file("baseURL: http://127.0.0.1:8080/v1\nmodel: local\n")
        defer { try? FileManager.default.removeItem(at: url) }
        let settings = try ModelSettings(try ModelSettings.Fields.read(url), file: url)
        #expect(try settings.key(in: [:]) == nil)
    }

    @Test(arguments: [
        ("baseURL: [1, 2]\nmodel: m\n", "baseURL"),
        ("baseURL: ftp://host\nmodel: m\n", "http://"),
        ("baseURL: http://h\n", "model"),
        ("baseURL: http://h\nmodel: m\nkeyVariable: \"sk-abc def\"\n", "keyVariable"),
        ("- not\n- a map\n", "baseURL, model and keyVariable"),
    ])
    func badFilesSayWhichField(text: String, named: String) throws {
        let url = try Self.file(text)
        defer { try? FileManager.default.removeItem(at: url) }
        let error = #expect(throws: ModelError.self) { try ModelSettings(try ModelSettings.Fields.read(url), file: url) }
        #expect(error?.description.contains(named) == true, "\(String(describing: error))")
    }
}
