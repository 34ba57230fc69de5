#if canImport(Glibc)
import Glibc
#endif
import PlainText
import Testing

/// A failed system call is told in our words: never the C library's text, for any error number.
struct SystemErrorWordsTests {
    @Test func noErrorNumberIsToldInTheCLibrarysWords() {
        for code in Int32(1)...133 {
            let words = SystemErrorWords.describe(code), raw = String(cString: strerror(code))
            #expect(!words.isEmpty && !words.localizedCaseInsensitiveContains(raw), "\(code): \(words)")
        }
    }

    @Test func whatCanBeDoneIsSaid() {
        #expect(SystemErrorWords.describe(EACCES) == "you may not; check the owner and mode (ls -ld)")
        #expect(SystemErrorWords.describe(ENOSPC) == "the disk is full; free some space")
        #expect(SystemErrorWords.describe(EMFILE).contains("ulimit -n"))
    }
}
