import Foundation
@testable import MicroAppGenerator
import Testing

@Suite("AnswerFormat: the two files of a model's answer")
struct AnswerFormatTests {
    static let good = """
        Here you are:
        === FILE: app.yaml ===
        ```yaml
        id: x
        ```

        === FILE: app.py ===
        print("hi")
        === END ===
        trailing words
        """

    @Test func filesAreReadWithoutProseAroundThemOrFencesAroundEach() throws {
        let files = try AnswerFormat.parse(Self.good, scriptName: "app.py")
        #expect(files == AnswerFormat.Files(manifest: "id: x\n", script: "print(\"hi\")\n"))
    }

    @Test func anAnswerWithCRLFLineEndsIsRead() throws {
        let files = try AnswerFormat.parse(Self.good.replacingOccurrences(of: "\n", with: "\r\n"), scriptName: "app.py")
        #expect(files == AnswerFormat.Files(manifest: "id: x\n", script: "print(\"hi\")\n"))
    }

    @Test(arguments: [
        ("id: x\n", "has no '=== FILE: app.yaml ===' line"),
        ("=== FILE: app.yaml ===\nid: x\n=== FILE: app.py ===\nx\n", "does not end with a '=== END ===' line"),
        ("=== FILE: app.yaml ===\nid: x\n=== END ===\n", "has no app.py"),
        ("=== FILE: app.yaml ===\n=== FILE: app.py ===\n=== FILE: helper.py ===\n=== END ===\n", "has helper.py; only app.yaml and app.py"),
        ("=== FILE: app.yaml ===\n=== FILE: app.yaml ===\n=== END ===\n", "has app.yaml twice"),
        ("=== FILE: app.yaml ===\nid: x\n=== FILE: app.sh ===\necho\n=== END ===\n", "has app.sh; only app.yaml and app.py"),
    ])
    func problemsNameWhatIsWrong(answer: String, problem: String) {
        let error = #expect(throws: GenerationProblem.self) { try AnswerFormat.parse(answer, scriptName: "app.py") }
        #expect(error?.description.contains(problem) == true, "\(String(describing: error))")
    }
}
