#if canImport(Glibc)
import Glibc
#endif

/// Why a system call failed, in our words, with what to do where there is something: never the C
/// library's `strerror` text, which is terse, sometimes localised, and says nothing of a remedy.
public enum SystemErrorWords {
    public static func describe(_ code: Int32) -> String {
        switch code {
        case EACCES, EPERM: "you may not; check the owner and mode (ls -ld)"
        case ENOENT: "it is not there"
        case ENOTDIR: "a part of its path is not a folder"
        case EEXIST: "something of that name is there already"
        case ENOSPC, EDQUOT: "the disk is full; free some space"
        case EROFS: "its file system is mounted read-only"
        case EMFILE, ENFILE: "too many files are open; close some programs, or raise the limit (ulimit -n)"
        case EAGAIN: "too many processes are running; try again once fewer are"
        case ENOMEM: "there is not enough memory; close some programs"
        case ENAMETOOLONG: "its path is too long"
        case ELOOP: "its symbolic links go round in a loop"
        case ENOEXEC: "it is not a program this system can run (does the script start with #!?)"
        case ECONNREFUSED: "nothing is listening there"
        case ETIMEDOUT: "no answer came in time"
        case EIO: "the disk reported an error; check it"
        case ENOSYS: "this system's kernel does not offer it"
        case EBUSY: "it is in use"
        default: "the system refused it (error \(code))"
        }
    }
}
