"""The README's team deployment on loopback, for deploy/test-two-instances and
scripts/bench-instances: a PostgreSQL server of its own (on a unix socket; as root, run as the
`postgres` user), `termcanvas-bff` instances on it and deploy/nginx.conf in front of them."""
import glob, http.client, json, os, pwd, shutil, socket, subprocess, sys, tempfile, threading, time, uuid

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def pg_program(name):
    found = shutil.which(name)
    if found:
        return found
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/" + name), key=lambda p: int(p.split("/")[4]))
    if not versions:
        sys.exit(f"test-two-instances: PostgreSQL's {name} is missing (scripts/install-deps installs it)")
    return versions[-1]


class Postgres:
    """A PostgreSQL server of this script's own on a unix socket only (as root: as `postgres`)."""

    def __init__(self, durable=False):
        # Durable: every commit flushed to disk, as SQLite's synchronous=FULL (for figures);
        # else fsync is off, as tests need no power-loss safety.
        self.durable = durable
        self.as_postgres = os.geteuid() == 0
        home = pwd.getpwnam("postgres").pw_dir if self.as_postgres else tempfile.gettempdir()
        self.dir = os.path.join(home, f"tc-deploy-{uuid.uuid4().hex[:8]}")
        os.mkdir(self.dir, 0o700)
        if self.as_postgres:
            entry = pwd.getpwnam("postgres")
            os.chown(self.dir, entry.pw_uid, entry.pw_gid)
        self.data = os.path.join(self.dir, "data")
        self.run("initdb", "-D", self.data, "-U", "termcanvas", "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C")
        self.start()
        self.run("psql", "-X", "-q", "-h", self.dir, "-U", "termcanvas", "-d", "postgres", "-c", "CREATE DATABASE termcanvas")

    def run(self, program, *arguments):
        command = [pg_program(program), *arguments]
        if self.as_postgres:
            command = ["runuser", "-u", "postgres", "--", *command]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def start(self):
        self.run("pg_ctl", "-D", self.data, "-l", os.path.join(self.dir, "log"), "-w", "-o",
                 f"-k {self.dir} -c listen_addresses='' -c max_connections=200" + ("" if self.durable else " -c fsync=off"), "start")

    def stop(self, mode="fast"):
        self.run("pg_ctl", "-D", self.data, "-m", mode, "-w", "stop")

    @property
    def url(self):
        return f"postgres://termcanvas@/termcanvas?host={self.dir}"

    def remove(self):
        try:
            self.stop("immediate")
        except subprocess.CalledProcessError:
            pass
        shutil.rmtree(self.dir, ignore_errors=True)


def request(port, method, path, body=None, token=None, headers=None, timeout=5):
    """(status, headers, body) of one request on a new connection."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    sent = dict(headers or {})
    if token:
        sent["Authorization"] = f"Bearer {token}"
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        sent["Content-Type"] = "application/json"
    try:
        connection.request(method, path, body=data, headers=sent)
        response = connection.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        connection.close()


def wait_until(condition, seconds, step=0.05):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            if condition():
                return True
        except OSError:
            pass
        time.sleep(step)
    return False


class Deployment:
    """Instances of `bff` on `postgres` (named "a", "b", …, each on a free port) and nginx in front
    (on `ports["lb"]`), in a private work directory; `stop()` ends them all."""

    def __init__(self, bff, postgres, extra_arguments=()):
        self.bff, self.postgres, self.extra = bff, postgres, list(extra_arguments)
        self.work = tempfile.mkdtemp(prefix="tc-deploy-")
        self.processes = {}
        self.ports = {"lb": free_port()}
        self.env = dict(os.environ, XDG_STATE_HOME=os.path.join(self.work, "state"),
                        XDG_DATA_HOME=os.path.join(self.work, "data"), XDG_CONFIG_HOME=os.path.join(self.work, "config"),
                        XDG_RUNTIME_DIR=os.path.join(self.work, "run"))

    def bff_command(self, *arguments, input=None):
        subprocess.run([self.bff, *arguments, "--database", self.postgres.url], env=self.env, check=True,
                       stdout=subprocess.DEVNULL, input=input)

    def start_instance(self, name, instances=2):
        """Starts (or restarts) instance `name`; returns whether it became ready within 30 s."""
        self.ports.setdefault(name, free_port())
        log = open(os.path.join(self.work, f"{name}.err"), "ab")
        self.processes[name] = subprocess.Popen(
            [self.bff, "serve", "--host", "127.0.0.1", "--port", str(self.ports[name]), "--database", self.postgres.url,
             "--instances", str(instances), "--trusted-proxy", "127.0.0.1", "--data-dir", os.path.join(self.work, name),
             *self.extra],
            env=self.env, stdout=log, stderr=log)
        return wait_until(lambda: request(self.ports[name], "GET", "/ready")[0] == 200, 30)

    def start_nginx(self, names=("a", "b")):
        """deploy/nginx.conf with its upstreams moved to the named instances' ports; returns whether it answers."""
        nginx = shutil.which("nginx") or "/usr/sbin/nginx"
        if not os.path.exists(nginx):
            sys.exit("nginx is missing (scripts/install-deps installs it)")
        conf_dir = os.path.join(self.work, "nginx")
        os.makedirs(os.path.join(conf_dir, "tmp"), exist_ok=True)
        conf = open(os.path.join(ROOT, "deploy/nginx.conf")).read()
        servers = "".join(f"        server 127.0.0.1:{self.ports[n]} max_fails=1 fail_timeout=2s;\n" for n in names)
        default = "        server 127.0.0.1:7451 max_fails=1 fail_timeout=2s;\n        server 127.0.0.1:7452 max_fails=1 fail_timeout=2s;\n"
        assert default in conf
        conf = conf.replace(default, servers).replace("listen 7450;", f"listen 127.0.0.1:{self.ports['lb']};")
        open(os.path.join(conf_dir, "nginx.conf"), "w").write(conf)
        self.processes["nginx"] = subprocess.Popen([nginx, "-p", conf_dir + "/", "-c", "nginx.conf", "-g", "daemon off;"],
                                                   stdout=subprocess.DEVNULL, stderr=open(os.path.join(self.work, "nginx.err"), "ab"))
        return wait_until(lambda: request(self.ports["lb"], "GET", "/health")[0] == 200, 10)

    def token(self, user, port=None):
        body = request(port or self.ports["lb"], "POST", "/api/auth/token", {"username": user, "password": f"password-{user}"})[2]
        return json.loads(body)["token"]

    def stop_nginx(self):
        """SIGTERM: nginx's master ends its workers too (SIGKILL would leave them serving)."""
        process = self.processes.pop("nginx", None)
        if process and process.poll() is None:
            process.terminate()
            process.wait()

    def stop(self, keep=False, show_logs=False):
        """Stops every process; with `show_logs`, prints the end of each one's log first (so that
        a failure on CI says what the servers saw)."""
        self.stop_nginx()
        for process in self.processes.values():
            if process.poll() is None:
                process.kill()
                process.wait()
        if show_logs:
            for path in sorted(glob.glob(os.path.join(self.work, "**", "*.err"), recursive=True)
                               + glob.glob(os.path.join(self.work, "**", "*.log"), recursive=True)):
                lines = open(path, errors="replace").read().splitlines()[-40:]
                print(f"--- the end of {os.path.relpath(path, self.work)}", *lines, sep="\n", file=sys.stderr)
        if keep:
            print(f"kept {self.work}")
        else:
            shutil.rmtree(self.work, ignore_errors=True)


class StreamClient:
    """A dashboard's live stream: reconnects (through `port`) with its Last-Event-ID whenever its
    stream ends, as the product's client does, and records every chat message it receives."""

    def __init__(self, port, token, reconnect_delay=0.05):
        self.port, self.token, self.reconnect_delay = port, token, reconnect_delay
        self.last_id = None
        self.messages = []
        # When each message's text arrived.
        self.arrived = {}
        self.instances = []
        self.reconnected_at = []
        self.retry_hints = []
        self.stopping = False
        self.lock = threading.Lock()
        self.connected = threading.Event()
        threading.Thread(target=self.loop, daemon=True).start()

    def loop(self):
        while not self.stopping:
            try:
                self.stream()
            except OSError:
                pass
            if not self.stopping:
                time.sleep(self.reconnect_delay)

    def stream(self):
        sock = socket.create_connection(("127.0.0.1", self.port), timeout=30)
        self.sock = sock
        resume = f"Last-Event-ID: {self.last_id}\r\n" if self.last_id is not None else ""
        sock.sendall(f"GET /api/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {self.token}\r\n{resume}\r\n".encode())
        buffer = b""
        while b"\r\n\r\n" not in buffer:
            chunk = sock.recv(65536)
            if not chunk:
                return
            buffer += chunk
        head, buffer = buffer.split(b"\r\n\r\n", 1)
        if not head.startswith(b"HTTP/1.1 200"):
            return
        with self.lock:
            self.reconnected_at.append(time.monotonic())
        self.connected.set()
        chunked = b"transfer-encoding: chunked" in head.lower()
        raw, text = buffer, b""
        ended = False
        while True:
            if chunked:
                # Decodes whole chunks only: a chunk's size line or body may arrive in pieces.
                while b"\r\n" in raw and not ended:
                    size_line, rest = raw.split(b"\r\n", 1)
                    size = int(size_line.split(b";")[0], 16)
                    ended = size == 0
                    if len(rest) < size + 2:
                        break
                    text += rest[:size]
                    raw = rest[size + 2:]
            else:
                text, raw = text + raw, b""
            while b"\n\n" in text:
                frame, text = text.split(b"\n\n", 1)
                self.frame(frame.decode(errors="replace"))
            if ended:
                return
            chunk = sock.recv(65536)
            if not chunk:
                return
            raw += chunk

    def frame(self, frame):
        fields = {}
        for line in frame.split("\n"):
            if ":" in line and not line.startswith(":"):
                name, value = line.split(":", 1)
                fields[name] = value.strip()
        if "id" in fields:
            self.last_id = int(fields["id"])
        if "retry" in fields:
            self.retry_hints.append(int(fields["retry"]))
        if fields.get("event") == "chat.message.posted":
            text = json.loads(fields["data"])["text"]
            with self.lock:
                self.messages.append(text)
                self.arrived[text] = time.monotonic()

    def close(self):
        self.stopping = True
        try:
            self.sock.close()
        except (OSError, AttributeError):
            pass
