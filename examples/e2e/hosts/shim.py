"""The `taria-mcp` a host starts during a harness run (run.py writes it, as an
executable named `taria-mcp`, first on the host's PATH, so README's command lines stay
as they are). It runs the real bridge with the same arguments and passes its stdin
and stdout through unchanged, line by line, writing every JSON-RPC line of both
directions to a log of its own: what the bridge wrote is what the model's text is
compared with.

run.py fills in REAL (the real bridge), LOG_DIR, MARK (an environment variable
every process of one host run carries, so the run can end what it started) and ENV:
RUSTUP_HOME and CARGO_HOME (a host that passes its servers only a few variables, as
the MCP SDKs do, would leave the bridge's `cargo run` looking for the toolchain in
the run's temporary HOME) and cargo's directory, added to PATH if cargo is not on it.
"""

import json
import os
import signal
import subprocess
import sys
import threading
import time

REAL = "@REAL@"
LOG_DIR = "@LOG_DIR@"
MARK = "@MARK@"
ENV = json.loads("@ENV@")
# Options put before the bridge's own (after `spawn`), e.g. --structured: run.py's
# --bridge-arg, for a control run.
EXTRA_ARGS = json.loads("@ARGS@")


def main() -> int:
    env = dict(os.environ)
    name, _, value = MARK.partition("=")
    env[name] = value
    cargo_dir = ENV.pop("TARIA_CARGO_DIR", None)
    env.update(ENV)
    if cargo_dir and not any(
        os.path.exists(os.path.join(d, "cargo")) for d in env.get("PATH", "").split(os.pathsep)
    ):
        env["PATH"] = env.get("PATH", "") + os.pathsep + cargo_dir
    log = open(os.path.join(LOG_DIR, f"shim-{os.getpid()}.jsonl"), "a", buffering=1)
    lock = threading.Lock()
    started = time.time()

    def note(direction: str, line: bytes) -> None:
        with lock:
            if log.closed:
                return
            log.write(
                json.dumps(
                    {
                        "t": round(time.time() - started, 3),
                        "dir": direction,
                        "line": line.decode("utf-8", "surrogateescape"),
                    }
                )
                + "\n"
            )

    args = sys.argv[1:]
    note("argv", json.dumps(args).encode())
    if EXTRA_ARGS:
        args = ["spawn", *EXTRA_ARGS, *args[1:]] if args[:1] == ["spawn"] else [*EXTRA_ARGS, *args]
    child = subprocess.Popen([REAL, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, lambda s, _f: child.send_signal(s))

    def pump_in() -> None:
        try:
            for line in iter(sys.stdin.buffer.readline, b""):
                note("in", line)
                child.stdin.write(line)
                child.stdin.flush()
        except (BrokenPipeError, OSError):
            pass
        finally:
            note("in-eof", b"")
            try:
                child.stdin.close()
            except OSError:
                pass

    threading.Thread(target=pump_in, daemon=True).start()
    out = sys.stdout.buffer
    try:
        for line in iter(child.stdout.readline, b""):
            note("out", line)
            out.write(line)
            out.flush()
    except (BrokenPipeError, OSError):
        pass
    code = child.wait()
    note("exit", str(code).encode())
    with lock:
        log.close()
    return code if code >= 0 else 128 - code


if __name__ == "__main__":
    status = main()
    # Not sys.exit: the stdin thread may still be blocked in a read, and the
    # interpreter's shutdown would then abort on the lock of sys.stdin.
    os._exit(status)
