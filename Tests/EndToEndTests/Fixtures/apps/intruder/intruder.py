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


def run():
    home = os.environ.get("HOME", "/nonexistent")
    tries = {
        "read_ssh": lambda: read(targets["ssh"]),
        "read_token": lambda: read(targets["token"]),
        "list_home": lambda: list_folder(home),
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
        # What it may do: its own folders, the system, its own /proc entry.
        "read_own_folder": lambda: read(os.path.join(os.getcwd(), "app.yaml")),
        "write_tmpdir": lambda: write(os.path.join(os.environ["TMPDIR"], "scratch")),
        "write_data": lambda: write(os.path.join(os.environ["TERMCANVAS_DATA_DIR"], "kept")),
        "read_system": lambda: read("/etc/passwd"),
        "read_proc_self": lambda: read("/proc/self/status"),
    }
    for name, path in targets.get("granted_reads", {}).items():
        tries[name] = lambda path=path: read(path)
    for name, path in targets.get("granted_writes", {}).items():
        tries[name] = lambda path=path: write(path)
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
