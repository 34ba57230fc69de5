"""sysmon: a TermCanvas micro-app (protocol 1) showing CPU, memory, load and the top processes.

It reads /proc every 2 seconds while its pane is visible, answers every key with a view, and
publishes `sysmon.cpu.high` when the CPU stays above a threshold. Python 3 standard library only.
"""
import collections
import json
import os
import selectors
import sys
import time

INTERVAL = 2.0          # seconds between samples
FIRST_SAMPLE = 1.0      # the first delta comes sooner, so the gauges fill in quickly
HISTORY = 60            # load-average samples kept for the sparkline
MAX_ROWS = 100          # processes sent in the table
HIGH_SAMPLES = 3        # samples above the threshold before publishing
HIGH_EVERY = 60.0       # seconds between two publishes at most
SORTS = ["cpu", "mem"]
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
PAGE_SIZE = os.sysconf("SC_PAGE_SIZE")


# --- Reading /proc ---------------------------------------------------------------------------

def read_text(path):
    try:
        with open(path, "rb") as handle:
            return handle.read().decode("utf-8", "replace")
    except OSError:
        return None


def cpu_times():
    """(busy, total) jiffies of all CPUs together, from the first line of /proc/stat."""
    text = read_text("/proc/stat") or "cpu 0 0 0 0"
    fields = [int(value) for value in text.split("\n", 1)[0].split()[1:9]]
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)
    total = sum(fields)
    return total - idle, total


def memory():
    """(used, total) bytes from /proc/meminfo's MemTotal and MemAvailable."""
    values = {}
    for line in (read_text("/proc/meminfo") or "").splitlines():
        name, _, rest = line.partition(":")
        if name in ("MemTotal", "MemAvailable", "MemFree"):
            values[name] = int(rest.split()[0]) * 1024
    total = values.get("MemTotal", 0)
    available = values.get("MemAvailable", values.get("MemFree", 0))
    return max(0, total - available), total


def load_average():
    text = read_text("/proc/loadavg") or "0"
    try:
        return float(text.split()[0])
    except (ValueError, IndexError):
        return 0.0


def processes():
    """{pid: (name, cpu ticks, resident bytes)} for every process we may read."""
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        stat = read_text(f"/proc/{entry}/stat")
        statm = read_text(f"/proc/{entry}/statm")
        if not stat or not statm:
            continue  # gone meanwhile
        try:
            name = stat[stat.index("(") + 1:stat.rindex(")")]
            after = stat[stat.rindex(")") + 2:].split()
            ticks = int(after[11]) + int(after[12])    # utime + stime (fields 14 and 15)
            resident = int(statm.split()[1]) * PAGE_SIZE
        except (ValueError, IndexError):
            continue
        found[int(entry)] = (name, ticks, resident)
    return found


# --- The monitor's state -----------------------------------------------------------------------

class Monitor:
    def __init__(self):
        self.width = 0
        self.height = 0
        self.visible = True
        self.sort = "cpu"
        self.threshold = 90.0
        self.selected = 0
        self.selected_pid = None
        self.cpu = None                 # percent, None before the first delta
        self.mem = (0, 0)
        self.loads = collections.deque(maxlen=HISTORY)
        self.rows = []                  # [(pid, name, cpu%, resident bytes)]
        self.high_count = 0
        self.last_publish = None
        self.previous = None            # (time, busy, total, processes) of the last sample
        self.warnings = []              # logged once initialize is answered

    def configure(self, params):
        self.resize(params.get("size") or {})
        self.visible = params.get("visible", True) is not False
        settings = params.get("settings") or {}
        try:
            threshold = float(settings.get("threshold", self.threshold))
            if 0 < threshold <= 100:
                self.threshold = threshold
        except (TypeError, ValueError):
            self.warnings.append(f"settings.threshold {settings.get('threshold')!r} is not a percentage; using 90")
        state = params.get("state")
        if isinstance(state, dict) and state.get("sort") in SORTS:
            self.sort = state["sort"]

    def resize(self, size):
        self.width = int(size.get("width") or 0)
        self.height = int(size.get("height") or 0)

    def sample(self):
        """Reads /proc; the CPU figures are deltas since the previous sample."""
        now = time.monotonic()
        busy, total = cpu_times()
        found = processes()
        self.mem = memory()
        self.loads.append(load_average())
        if self.previous:
            then, old_busy, old_total, old_found = self.previous
            if total > old_total:
                self.cpu = 100.0 * (busy - old_busy) / (total - old_total)
            elapsed = max(now - then, 0.001)
            self.rows = []
            for pid, (name, ticks, resident) in found.items():
                old = old_found.get(pid)
                used = ticks - old[1] if old else 0
                self.rows.append((pid, name, 100.0 * used / CLOCK_TICKS / elapsed, resident))
            self.order()
        else:
            self.rows = [(pid, name, 0.0, resident) for pid, (name, _, resident) in found.items()]
            self.order()
        self.previous = (now, busy, total, found)

    def order(self):
        """Sorts the rows and keeps the selection on the same process when it is still there."""
        key = (lambda row: (row[2], row[3])) if self.sort == "cpu" else (lambda row: (row[3], row[2]))
        self.rows.sort(key=key, reverse=True)
        del self.rows[MAX_ROWS:]
        pids = [row[0] for row in self.rows]
        if self.selected_pid in pids:
            self.selected = pids.index(self.selected_pid)
        self.clamp()

    def clamp(self):
        self.selected = max(0, min(self.selected, len(self.rows) - 1))
        self.selected_pid = self.rows[self.selected][0] if self.rows else None

    def cpu_is_high(self, now):
        """True once per minute at most, when the CPU has been high for HIGH_SAMPLES samples."""
        if self.cpu is None:
            return False
        self.high_count = self.high_count + 1 if self.cpu > self.threshold else 0
        if self.high_count < HIGH_SAMPLES:
            return False
        if self.last_publish is not None and now - self.last_publish < HIGH_EVERY:
            return False
        self.last_publish = now
        return True

    def key(self, name):
        """Handles a key; returns True when the sort changed (and should be saved)."""
        page = max(1, self.table_height() - 1)
        moves = {"up": -1, "k": -1, "down": 1, "j": 1, "pageup": -page, "pagedown": page,
                 "home": -len(self.rows), "end": len(self.rows)}
        if name in moves:
            self.selected += moves[name]
            self.clamp()
        elif name == "s":
            self.sort = SORTS[(SORTS.index(self.sort) + 1) % len(SORTS)]
            self.order()
            return True
        return False

    # --- The view --------------------------------------------------------------------------

    def shows_help(self):
        return self.height == 0 or self.height >= 9

    def table_height(self):
        return max(1, (self.height or 20) - 3 - (1 if self.shows_help() else 0))

    def tree(self):
        children = [
            dict(self.cpu_gauge(), size=1),
            dict(self.memory_gauge(), size=1),
            dict(self.load_sparkline(), size=1),
            dict(self.table(), grow=1),
        ]
        if self.shows_help():
            help_text = f"↑↓ select · s sort: {self.sort}"
            children.append({"type": "text", "text": help_text, "role": "muted", "wrap": False, "size": 1})
        return {"type": "stack", "direction": "rows", "children": children}

    def cpu_gauge(self):
        if self.cpu is None:
            return {"type": "gauge", "label": "CPU", "value": 0, "text": "…", "role": "muted"}
        role = "error" if self.cpu > self.threshold else "warning" if self.cpu > self.threshold * 0.75 else "success"
        return {"type": "gauge", "label": "CPU", "value": round(self.cpu / 100, 4), "text": f"{self.cpu:3.0f}%",
                "role": role}

    def memory_gauge(self):
        used, total = self.mem
        fraction = used / total if total else 0
        text = f"{used / 2**30:.1f}/{total / 2**30:.1f}G" if self.width == 0 or self.width >= 40 else f"{fraction:.0%}"
        role = "error" if fraction > 0.9 else "warning" if fraction > 0.75 else "success"
        return {"type": "gauge", "label": "Mem", "value": round(fraction, 4), "text": text, "role": role}

    def load_sparkline(self):
        current = self.loads[-1] if self.loads else 0.0
        return {"type": "sparkline", "label": f"Load {current:.2f}", "values": list(self.loads), "min": 0}

    def table(self):
        """pid, name, cpu% and MB; narrow panes keep the name and the sorted figure."""
        wide = self.width == 0 or self.width >= 34
        cpu_title = "CPU%▼" if self.sort == "cpu" else "CPU%"
        mem_title = "MB▼" if self.sort == "mem" else "MB"
        if wide:
            columns = [{"title": "PID", "width": 7, "align": "right"}, "Name",
                       {"title": cpu_title, "width": 6, "align": "right"},
                       {"title": mem_title, "width": 7, "align": "right"}]
        else:
            sorted_column = {"title": cpu_title, "width": 6, "align": "right"} if self.sort == "cpu" else \
                {"title": mem_title, "width": 7, "align": "right"}
            columns = ["Name", sorted_column]
        rows = []
        for pid, name, cpu, resident in self.rows:
            cells = {"pid": str(pid), "name": name, "cpu": f"{cpu:.1f}", "mem": f"{resident / 2**20:.0f}"}
            if wide:
                rows.append([cells["pid"], cells["name"], cells["cpu"], cells["mem"]])
            else:
                rows.append([cells["name"], cells[self.sort]])
        return {"type": "table", "columns": columns, "rows": rows, "selected": self.selected if rows else None}


# --- Talking to the host -----------------------------------------------------------------------

def send(message):
    message["jsonrpc"] = "2.0"
    try:
        sys.stdout.write(json.dumps(message, ensure_ascii=False, separators=(",", ":")) + "\n")
        sys.stdout.flush()
    except BrokenPipeError:
        os._exit(0)


def log(level, message):
    send({"method": "log", "params": {"level": level, "message": message}})


class App:
    def __init__(self):
        self.monitor = Monitor()
        self.revision = 0
        self.last_tree = None
        self.next_sample = None         # monotonic time of the next sample; None while hidden
        self.initialized = False

    def current_view(self):
        """The view with a new revision only when the tree changed."""
        tree = self.monitor.tree()
        encoded = json.dumps(tree, sort_keys=True)
        if encoded != self.last_tree:
            self.last_tree = encoded
            self.revision += 1
        return {"revision": self.revision, "root": tree}

    def send_view(self, always=True):
        previous = self.revision
        view = self.current_view()
        if always or view["revision"] != previous:
            send({"method": "view", "params": view})

    def timeout(self):
        if self.next_sample is None:
            return None
        return max(0.0, self.next_sample - time.monotonic())

    def tick(self):
        """Samples when it is time to, and sends the view when it changed."""
        if self.next_sample is None or time.monotonic() < self.next_sample:
            return
        self.next_sample = time.monotonic() + INTERVAL
        self.monitor.sample()
        if self.monitor.cpu_is_high(time.monotonic()):
            cpu = round(self.monitor.cpu, 1)
            send({"method": "bus.publish", "params": {
                "name": "sysmon.cpu.high", "summary": f"CPU {cpu:.0f}% (above {self.monitor.threshold:.0f}%)",
                "payload": {"cpu": cpu}}})
        self.send_view(always=False)

    def set_visible(self, visible):
        self.monitor.visible = visible
        if not self.initialized:
            return
        if not visible:
            self.next_sample = None
            self.monitor.high_count = 0
        elif self.next_sample is None:
            self.next_sample = time.monotonic()     # sample at once, then every INTERVAL

    def handle(self, message):
        """Handles one message from the host; returns False when the app should end."""
        method = message.get("method")
        params = message.get("params") or {}
        if method == "initialize":
            self.initialize(message.get("id"), params)
        elif method == "key":
            if self.monitor.key(params.get("key")):
                send({"method": "state.save", "params": {"state": {"sort": self.monitor.sort}}})
            self.send_view()
        elif method == "resize":
            self.monitor.resize(params)
            if self.monitor.visible:
                self.send_view(always=False)
        elif method == "visible":
            self.set_visible(params.get("visible") is not False)
        elif method == "shutdown":
            send({"id": message.get("id"), "result": None})
        elif method == "exit":
            return False
        elif method is not None and "id" in message:
            send({"id": message["id"], "error": {"code": -32601, "message": f"unknown method {method}"}})
        return True     # focus, bus.event, input.submit and answers need nothing

    def initialize(self, request_id, params):
        self.monitor.configure(params)
        self.monitor.sample()           # the baseline for the first deltas; memory and load show at once
        view = self.current_view()
        send({"id": request_id, "result": {"protocol": "1.0", "capabilities": {"keys": True}, "view": view}})
        self.initialized = True
        for warning in self.monitor.warnings:
            log("warning", warning)
        self.next_sample = time.monotonic() + FIRST_SAMPLE if self.monitor.visible else None


def lines(buffer, chunk):
    """Splits what arrived into whole lines; returns (lines, the rest)."""
    buffer += chunk
    *complete, rest = buffer.split(b"\n")
    return complete, rest


def main():
    app = App()
    selector = selectors.DefaultSelector()
    selector.register(sys.stdin.fileno(), selectors.EVENT_READ)
    buffer = b""
    while True:
        if selector.select(app.timeout()):
            chunk = os.read(sys.stdin.fileno(), 65536)
            if not chunk:
                return          # EOF: the host is gone
            complete, buffer = lines(buffer, chunk)
            for line in complete:
                if not line.strip():
                    continue
                try:
                    message = json.loads(line)
                except ValueError:
                    log("warning", "ignored a line that is not JSON")
                    continue
                if not isinstance(message, dict):
                    continue
                try:
                    if not app.handle(message):
                        return
                except Exception as error:     # a malformed message must not end the app
                    log("error", f"{message.get('method')}: {error!r}")
        app.tick()


if __name__ == "__main__":
    try:
        main()
    except KeyboardInterrupt:
        pass
