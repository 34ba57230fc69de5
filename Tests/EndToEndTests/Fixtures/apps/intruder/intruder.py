"""A fixture micro-app that attacks its own sandbox: at `initialize` it tries each escape named in
INTRUDER_TARGETS (JSON: paths, ports and process ids the test set up) and answers with one line,
`name=ok` or `name=ERRNO` for each, so that the test reads what the kernel said."""
import ctypes
import errno
import json
import os
import socket
import sys

targets = json.loads(os.environ.get("INTRUDER_TARGETS", "{}"))
libc = ctypes.CDLL(None, use_errno=True)


def attempt(action):
    try:
        action()
        return "ok"
    except OSError as error:
        return errno.errorcode.get(error.errno, str(error.errno))


def c_call(result):
    if result != 0:
        raise OSError(ctypes.get_errno(), "failed")


def read(path):
    with open(path, "rb") as file:
        file.read(1)


def write(path):
    with open(path, "w") as file:
        file.write("intruder was here\n")


def run_program(path):
    import subprocess
    if subprocess.run([path], stdin=subprocess.DEVNULL, capture_output=True).returncode != 0:
        raise OSError(errno.EIO, "it failed")


def connect_unix(path):
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as client:
        client.connect(path)


def connect_tcp(port):
    with socket.create_connection(("127.0.0.1", port), timeout=2):
        pass


def bind_tcp():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as server:
        server.bind(("127.0.0.1", 0))
        server.listen()


def udp():
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sender:
        sender.sendto(b"leak", ("127.0.0.1", 53))


def ptrace(pid):
    PTRACE_ATTACH = 16
    libc.ptrace.restype = ctypes.c_long
    c_call(libc.ptrace(PTRACE_ATTACH, pid, None, None))


def list_folder(path):
    os.listdir(path)


def list_home_shows_users_files():
    # HOME as the app sees it: what the test put in the user's is not there.
    if ".ssh" in os.listdir(os.environ.get("HOME", "/nonexistent")):
        return
    raise OSError(errno.ENOENT, "not there")


def chmod_home():
    os.chmod(os.environ.get("HOME", "/nonexistent"), 0o777)


def utime_token():
    os.utime(targets["token"], (0, 0))


def setxattr_home():
    os.setxattr(os.environ.get("HOME", "/nonexistent"), "user.pwned", b"1")


# The calls on other processes set what is there already: allowed, they would have set anything
# (the dashboard's CPU limit to 1 s, every process of the user to the lowest priority), and a test
# run on a host that lets them through is left as it was.
def prlimit_dashboard():
    import resource
    resource.prlimit(targets["dashboard"], resource.RLIMIT_CPU, resource.prlimit(targets["dashboard"], resource.RLIMIT_CPU))


def setpriority_user():
    # Every process of the user, were it not contained.
    os.setpriority(os.PRIO_USER, os.getuid(), os.getpriority(os.PRIO_PROCESS, 0))


def setpriority_dashboard():
    os.setpriority(os.PRIO_PROCESS, targets["dashboard"], os.getpriority(os.PRIO_PROCESS, targets["dashboard"]))


def affinity_dashboard():
    os.sched_setaffinity(targets["dashboard"], os.sched_getaffinity(targets["dashboard"]))


def ioprio_dashboard():
    libc.syscall.restype = ctypes.c_long
    current = libc.syscall(252, 1, targets["dashboard"])  # ioprio_get(IOPRIO_WHO_PROCESS, pid)
    if current < 0:
        raise OSError(ctypes.get_errno(), "ioprio_get")
    c_call(libc.syscall(251, 1, targets["dashboard"], current))  # ioprio_set


def sysv_shm():
    libc.shmget.restype = ctypes.c_int
    ident = libc.shmget(targets["shm_key"], 0, 0)
    if ident < 0:
        raise OSError(ctypes.get_errno(), "shmget")


def inotify_system():
    # The system's folders are the host's: a watch would see which files and programs the host
    # opens (and all of the user's inotify instances taken would blind its other programs).
    libc.inotify_init1.restype = ctypes.c_int
    fd = libc.inotify_init1(0o2000000)  # IN_CLOEXEC
    if fd < 0:
        raise OSError(ctypes.get_errno(), "inotify_init1")
    try:
        if libc.inotify_add_watch(fd, b"/etc", 0x20) < 0:  # IN_OPEN
            raise OSError(ctypes.get_errno(), "inotify_add_watch")
    finally:
        os.close(fd)


def set_user_id_file():
    # A set-user-ID copy of a program in a folder it may write: for root's apps, root's on disk.
    path = os.path.join(os.environ["TERMCANVAS_DATA_DIR"], "suid")
    with open(path, "wb") as file:
        file.write(b"#!/bin/sh\n")
    os.chmod(path, 0o4755)


def set_user_id_create():
    fd = os.open(os.path.join(os.environ["TERMCANVAS_DATA_DIR"], "suid-new"), os.O_CREAT | os.O_WRONLY, 0o6755)
    os.close(fd)


def set_group_id_folder():
    os.mkdir(os.path.join(os.environ["TERMCANVAS_DATA_DIR"], "sgid"), 0o2777)


def listen_tcp_other_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as server:
        server.listen()


def mptcp_connect():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM, 262) as client:  # IPPROTO_MPTCP
        client.settimeout(2)
        client.connect(("127.0.0.1", targets["port"]))


def fastopen_connect():
    # Blocking: a Fast Open send without a cookie connects first, to a port that is not granted.
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as client:
        client.sendto(b"x", 0x20000000, ("127.0.0.1", targets["other_port"]))  # MSG_FASTOPEN


def memfd():
    fd = os.memfd_create("hoard")
    os.close(fd)


def unlinked_past_limit():
    # Files unlinked while open, each below the largest file it may write, together past its disk
    # limit: counted only where its folders are a tmpfs of its own.
    block = b"x" * (1 << 20)
    files = []
    try:
        for index in range(targets.get("unlinked_files", 0)):
            path = os.path.join(os.environ["TMPDIR"], f"hidden{index}")
            file = open(path, "wb")
            files.append(file)
            os.unlink(path)
            for _ in range(targets.get("unlinked_mib_each", 0)):
                file.write(block)
            file.flush()
    finally:
        for file in files:
            try:
                file.close()
            except OSError:
                pass


def posix_semaphore():
    # Python's multiprocessing locks are POSIX semaphores, files in /dev/shm: the app's own.
    import multiprocessing
    lock = multiprocessing.Lock()
    lock.acquire()
    lock.release()


def read_shadow():
    read("/etc/shadow")


def set_hostname():
    name = socket.gethostname().encode()
    c_call(libc.sethostname(name, len(name)))


def capabilities():
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("CapEff:") and int(line.split()[1], 16) != 0:
                return
    raise OSError(errno.EPERM, "none")


def run():
    home = os.environ.get("HOME", "/nonexistent")
    tries = {
        "read_ssh": lambda: read(targets["ssh"]),
        "read_token": lambda: read(targets["token"]),
        "write_home": lambda: write(os.path.join(home, "PWNED")),
        "symlink_escape": lambda: read(os.path.join(os.getcwd(), "leak")),
        "unix_socket": lambda: connect_unix(targets["socket"]),
        "tcp_connect": lambda: connect_tcp(targets["port"]),
        "tcp_bind": bind_tcp,
        "udp_send": udp,
        "signal_dashboard": lambda: os.kill(targets["dashboard"], 0),
        "signal_keeper": lambda: os.kill(os.getppid(), 0),
        "ptrace_sibling": lambda: ptrace(targets["sibling"]),
        "read_environ": lambda: read(f"/proc/{targets['dashboard']}/environ"),
        "unshare": lambda: c_call(libc.unshare(0x10000000)),  # CLONE_NEWUSER
        "mount": lambda: c_call(libc.mount(b"none", os.environ["TMPDIR"].encode(), b"tmpfs", 0, None)),
        "home_shows_users_files": list_home_shows_users_files,
        "chmod_home": chmod_home,
        "utime_token": utime_token,
        "setxattr_home": setxattr_home,
        "prlimit_dashboard": prlimit_dashboard,
        "setpriority_user": setpriority_user,
        "setpriority_dashboard": setpriority_dashboard,
        "affinity_dashboard": affinity_dashboard,
        "ioprio_dashboard": ioprio_dashboard,
        "sysv_shm": sysv_shm,
        "inotify_system": inotify_system,
        "setuid_chmod": set_user_id_file,
        "setuid_create": set_user_id_create,
        "setgid_mkdir": set_group_id_folder,
        "listen_other_port": listen_tcp_other_port,
        "mptcp_connect": mptcp_connect,
        "fastopen_connect": fastopen_connect,
        "memfd": memfd,
        "unlinked_past_limit": unlinked_past_limit,
        "read_shadow": read_shadow,
        "set_hostname": set_hostname,
        "capabilities": capabilities,
        # What it may do: its own folders, the system, its own /proc entry.
        "read_own_folder": lambda: read(os.path.join(os.getcwd(), "app.yaml")),
        "write_tmpdir": lambda: write(os.path.join(os.environ["TMPDIR"], "scratch")),
        "write_data": lambda: write(os.path.join(os.environ["TERMCANVAS_DATA_DIR"], "kept")),
        "read_system": lambda: read("/etc/passwd"),
        "read_proc_self": lambda: read("/proc/self/status"),
        "posix_semaphore": posix_semaphore,
    }
    for name, path in targets.get("granted_reads", {}).items():
        tries[name] = lambda path=path: read(path)
    for name, path in targets.get("granted_writes", {}).items():
        tries[name] = lambda path=path: write(path)
    for name, path in targets.get("granted_runs", {}).items():
        tries[name] = lambda path=path: run_program(path)
    results = " ".join(f"{name}={attempt(action)}" for name, action in tries.items())
    return f"{results} tmpdir={os.environ.get('TMPDIR', '')}"


for line in sys.stdin:
    message = json.loads(line)
    if message.get("method") == "initialize":
        text = run()
        sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": {
            "protocol": "1.0", "view": {"revision": 1, "root": {"type": "text", "text": text}}}}) + "\n")
        sys.stdout.flush()
    elif message.get("method") == "shutdown":
        sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": None}) + "\n")
        sys.stdout.flush()
    elif message.get("method") == "exit":
        break
