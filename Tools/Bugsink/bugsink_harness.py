#!/usr/bin/env python3
"""Start a throwaway Bugsink (gunicorn + SQLite in a temp dir) for crashtrail's forwarding tests.

CLI:   python3 bugsink_harness.py [--port 8123] [--no-eager] [--validate strict|warn|none] [--keep] [--tmp DIR]
       --tmp DIR reuses DIR (its databases, when there) and keeps it: a Bugsink stopped and started again.
       -> prints one JSON line with dsn/token/session etc., then serves until Ctrl-C / SIGTERM.
Python:
       from bugsink_harness import BugsinkServer
       with BugsinkServer(port=8123) as bs:
           bs.info["dsn"], bs.db_path, bs.log_path ...
"""
import argparse
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
# migrated empty DBs are cached here: first run ~5-6 s of migrations, later runs copy 2 files (~0 s)
TEMPLATE_DIR = os.environ.get("BUGSINK_TEMPLATE_DIR", os.path.join(tempfile.gettempdir(), "crashtrail-bugsink-template"))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def bin_path(name):
    # console scripts live next to the python interpreter
    p = os.path.join(os.path.dirname(sys.executable), name)
    return p if os.path.exists(p) else shutil.which(name)


class BugsinkServer:
    def __init__(self, port=None, eager=True, validate="strict", tmp=None, snappea=None, keep=False,
                 use_template=True, extra_settings=None, retention=None):
        self.port = port or free_port()
        self.eager = eager
        # with eager=False you need the snappea foreman, else events stay queued forever
        self.snappea = (not eager) if snappea is None else snappea
        self.validate = validate
        parent = os.environ.get("BUGSINK_TMP_PARENT", tempfile.gettempdir())
        os.makedirs(parent, exist_ok=True)
        self.tmp = tmp or tempfile.mkdtemp(prefix="bugsink-", dir=parent)
        self.keep = keep
        self.use_template = use_template
        self.extra_settings = extra_settings or {}
        self.retention = retention
        self.procs = []
        self.info = None
        self.timings = {}

    # paths
    @property
    def db_path(self):
        return os.path.join(self.tmp, "db.sqlite3")

    @property
    def log_path(self):
        return os.path.join(self.tmp, "gunicorn.log")

    @property
    def snappea_log_path(self):
        return os.path.join(self.tmp, "snappea.log")

    @property
    def base_url(self):
        return f"http://127.0.0.1:{self.port}"

    def env(self):
        e = dict(os.environ)
        e.update({
            "DJANGO_SETTINGS_MODULE": "bugsink_conf",
            "PYTHONPATH": HERE + os.pathsep + e.get("PYTHONPATH", ""),
            "BUGSINK_TMP": self.tmp,
            "BUGSINK_PORT": str(self.port),
            "BUGSINK_EAGER": "1" if self.eager else "0",
            "BUGSINK_VALIDATE": self.validate,
            "PYTHONUNBUFFERED": "1",
            "BUGSINK_EXTRA": json.dumps(self.extra_settings),
        })
        if self.retention is not None:
            e["BUGSINK_RETENTION"] = str(self.retention)
        return e

    def _run(self, args):
        subprocess.run(args, env=self.env(), cwd=self.tmp, check=True,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT)

    def migrate(self):
        t = time.monotonic()
        if os.path.exists(self.db_path):  # a Bugsink started again on its own databases
            self.timings["migrate"] = 0
            return
        tpl_ok = os.path.exists(os.path.join(TEMPLATE_DIR, "db.sqlite3"))
        if self.use_template and tpl_ok:
            for f in ("db.sqlite3", "snappea.sqlite3"):
                shutil.copy(os.path.join(TEMPLATE_DIR, f), os.path.join(self.tmp, f))
        else:
            manage = bin_path("bugsink-manage")
            self._run([manage, "migrate", "--no-input"])
            self._run([manage, "migrate", "snappea", "--database=snappea", "--no-input"])
            if self.use_template:
                os.makedirs(TEMPLATE_DIR, exist_ok=True)
                for f in ("db.sqlite3", "snappea.sqlite3"):
                    shutil.copy(os.path.join(self.tmp, f), os.path.join(TEMPLATE_DIR, f + ".tmp"))
                    os.replace(os.path.join(TEMPLATE_DIR, f + ".tmp"), os.path.join(TEMPLATE_DIR, f))
        self.timings["migrate"] = time.monotonic() - t

    def setup_objects(self):
        t = time.monotonic()
        out = subprocess.run([sys.executable, os.path.join(HERE, "bugsink_setup_objects.py")], env=self.env(),
                             cwd=self.tmp, check=True, stdout=subprocess.PIPE, text=True).stdout
        self.info = json.loads(out.strip().splitlines()[-1])
        self.info.update({"base_url": self.base_url, "tmp": self.tmp, "db_path": self.db_path,
                          "log_path": self.log_path})
        self.timings["setup_objects"] = time.monotonic() - t

    def start_processes(self):
        t = time.monotonic()
        log = open(self.log_path, "ab")
        self.procs.append(subprocess.Popen([
            bin_path("gunicorn"),
            "--bind", f"127.0.0.1:{self.port}",
            "--workers", "1", "--threads", "4",      # 1 process: SQLite single writer; threads for concurrent POSTs
            "--no-control-socket",                   # gunicorn>=25 would otherwise create ~/.gunicorn/gunicorn.ctl
            "--access-logfile", "-",
            "--timeout", "60",
            "--graceful-timeout", "3",               # default 30 s: stop() would hang on keep-alive connections
            "bugsink.wsgi",
        ], env=self.env(), cwd=self.tmp, stdout=log, stderr=subprocess.STDOUT, start_new_session=True))
        if self.snappea:
            slog = open(self.snappea_log_path, "ab")
            self.procs.append(subprocess.Popen([bin_path("bugsink-runsnappea")], env=self.env(), cwd=self.tmp,
                                               stdout=slog, stderr=subprocess.STDOUT, start_new_session=True))
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(self.base_url + "/health/ready", timeout=1) as r:
                    if r.status == 200:
                        break
            except OSError:
                pass
            if self.procs[0].poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("gunicorn did not come up; see " + self.log_path)
            time.sleep(0.1)
        self.timings["gunicorn_ready"] = time.monotonic() - t

    def start(self):
        t = time.monotonic()
        self.migrate()
        self.setup_objects()
        self.start_processes()
        self.timings["total"] = time.monotonic() - t
        self.info["timings"] = {k: round(v, 2) for k, v in self.timings.items()}
        return self

    def stop(self):
        for p in reversed(self.procs):
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        for p in self.procs:
            try:
                p.wait(timeout=15)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        self.procs = []
        if not self.keep:
            shutil.rmtree(self.tmp, ignore_errors=True)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--port", type=int)
    ap.add_argument("--no-eager", action="store_true", help="queue digests in snappea DB, run bugsink-runsnappea")
    ap.add_argument("--validate", default="strict", choices=["strict", "warn", "none"])
    ap.add_argument("--keep", action="store_true", help="keep the temp dir after exit")
    ap.add_argument("--no-template", action="store_true", help="always run the migrations")
    ap.add_argument("--tmp", help="the folder of its databases: reused when it has them, and kept")
    a = ap.parse_args()
    if a.tmp:
        os.makedirs(a.tmp, exist_ok=True)
    bs = BugsinkServer(port=a.port, eager=not a.no_eager, validate=a.validate, keep=a.keep or bool(a.tmp),
                       use_template=not a.no_template, tmp=a.tmp)
    # A parent may start this with SIGTERM blocked (a test runner's threads often block it); unblock it, or the stop
    # signal would wait forever, and gunicorn, which inherits the mask, would not stop either.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    try:
        bs.start()
        print(json.dumps(bs.info), flush=True)
        while all(p.poll() is None for p in bs.procs):
            time.sleep(0.5)
    except KeyboardInterrupt:
        pass
    finally:
        bs.stop()


if __name__ == "__main__":
    main()
