#!/usr/bin/env python3
"""The host harness: real MCP hosts and agent frameworks, installed by install.sh,
each run once against a stand-in model (standin.py) on 127.0.0.1, connected to the
bridge with README's own configuration for that host, to check what the model is
actually given.

    bash examples/e2e/hosts/install.sh
    cargo build --workspace --all-features --examples --bins
    python3 examples/e2e/hosts/run.py --check            # every host, a table, exit 1 on a failure
    python3 examples/e2e/hosts/run.py --only codex       # one host

Per host, in a temporary HOME (and config dirs) and, where `unshare` allows it, a
network namespace of its own with only a loopback (so nothing but 127.0.0.1 is
reachable): README's block for the host is applied as written (`claude mcp add …`,
the `~/.codex/config.toml` block, `gemini mcp add …`, the mcp.json block the
frameworks read), then the host runs one prompt. The `taria-mcp` it starts is a shim
(shim.py), first on PATH, that runs the real `target/debug/taria-mcp` and logs every
JSON-RPC line both ways. The stand-in answers with the script's six tool calls
(read_tree, act, batch, a refused act, an act on a node that does not exist, the
screen as a picture), then a final text. Then, per host:

* connected: the bridge answered initialize and tools/list, and the model was offered
  the tools;
* tools: how many of the bridge's 9 tools the model was offered (found by suffix:
  hosts prefix them);
* results: each call's result as the model was given it equals the text the bridge
  wrote, byte for byte, once the host's wrapper (a JSON string, a list of text
  blocks, ...) is taken off;
* ratio: (result as the model is given it) / (the bridge's text), in bytes, the
  largest of the six (target <= 1.05); an image the model sees is billed as an image,
  so its bytes are left out, but base64 inside text counts;
* picture: how the host gives the model the picture's image (an image, as text, or
  dropped), as PICTURE_DELIVERY documents it;
* extras: no result refuses an argument the host added to the schemas (gemini-cli's
  `wait_for_previous`, given with the second call), nor says `unknown field`;
* and the run ends with the model's final answer, within the time limit.

What the harness substitutes, and nothing else: HOME (and XDG dirs, CODEX_HOME) point
into the run's directory, so the host's config is written there; RUSTUP_HOME and
CARGO_HOME keep pointing at the real toolchain (the temporary HOME would hide it);
the model's address and a dummy key go in the host's usual variables or config
(Codex: a `[model_providers]` entry and `model_provider`, `approval_policy = "never"`
above README's block); telemetry, update checks and error reports are turned off;
Claude Code's copy of this checkout's `.mcp.json` server is disabled in the temporary
`~/.claude.json` (it would start a second bridge through `cargo run`); gemini-cli's
settings get the API-key auth type, and it runs with `--yolo --skip-trust`
(non-interactive: no one to confirm a call or trust the folder). Each run's files (the model's requests, the shim's logs, the
host's output) stay in --out DIR, or in a temporary directory kept when a host fails.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import tomllib
import uuid
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path.insert(0, str(HERE))

import standin  # noqa: E402

HOSTS_DIR = Path(os.environ.get("TARIA_HOSTS_DIR") or Path.home() / ".cache" / "taria-hosts")
NPM_BIN = HOSTS_DIR / "npm" / "node_modules" / ".bin"
RATIO_TARGET = 1.05
MARK_VAR = "TARIA_HOSTS_RUN"
# The model's own settings in the caller's environment do not reach a host.
DROPPED_ENV = re.compile(
    r"^(ANTHROPIC_|CLAUDE|OPENAI_|CODEX_|GEMINI_|GOOGLE_|AZURE_|LANGCHAIN_|LANGSMITH_|"
    r"FAST_AGENT|LOGFIRE|OTEL_|HTTPS?_PROXY|ALL_PROXY|NO_PROXY|XDG_)",
    re.I,
)


# ---------------------------------------------------------------------------
# README's blocks


def readme_blocks(readme: Path) -> dict[str, str]:
    """`<!-- host:NAME -->` ... `<!-- /host -->`: the fenced code inside, by NAME."""
    blocks = {}
    text = readme.read_text()
    for name, body in re.findall(r"<!-- host:([\w-]+) -->\n(.*?)<!-- /host -->", text, re.S):
        code = re.search(r"```[\w-]*\n(.*?)```", body, re.S)
        if code:
            blocks[name] = code.group(1)
    return blocks


def commands(block: str, program: str) -> list[list[str]]:
    """The command lines of a shell block that run `program`."""
    out = []
    for line in block.splitlines():
        words = shlex.split(line, comments=True)
        if words and words[0] == program:
            out.append(words)
    return out


# ---------------------------------------------------------------------------
# One host's run


@dataclass
class Ctx:
    """What a host's setup gets: where to write, the model's address, README."""

    name: str
    dir: Path
    home: Path
    repo: Path
    url: str
    blocks: dict[str, str]
    env: dict[str, str]
    notes: list[str] = field(default_factory=list)

    def write_mcp_json(self) -> Path:
        path = self.dir / "mcp.json"
        path.write_text(self.blocks["mcp-json"])
        return path


@dataclass
class Step:
    argv: list[str]
    timeout: float
    cwd: Path | None = None
    env: dict[str, str] = field(default_factory=dict)


class Host:
    name = ""
    api = ""
    timeout = 90.0

    def version(self, ctx: Ctx) -> str:
        raise NotImplementedError

    def setup(self, ctx: Ctx) -> list[Step]:
        """The config steps and, last, the run; may write files into ctx.home/ctx.dir."""
        raise NotImplementedError

    def available(self) -> str | None:
        """Why the host cannot run here (not installed), or None."""
        return None


def npm_host_missing(binary: str) -> str | None:
    if not (NPM_BIN / binary).exists():
        return f"{NPM_BIN / binary} is missing: run examples/e2e/hosts/install.sh"
    return None


def npm_version(package: str) -> str:
    path = HOSTS_DIR / "npm" / "node_modules" / package / "package.json"
    try:
        return json.loads(path.read_text())["version"]
    except (OSError, ValueError, KeyError):
        return "?"


class ClaudeCode(Host):
    name = "claude-code"
    api = "anthropic"

    def available(self):
        return npm_host_missing("claude")

    def version(self, ctx):
        return npm_version("@anthropic-ai/claude-code")

    def setup(self, ctx):
        ctx.env.update(
            ANTHROPIC_BASE_URL=ctx.url,
            ANTHROPIC_API_KEY="sk-ant-standin",
            CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
            DISABLE_TELEMETRY="1",
            DISABLE_AUTOUPDATER="1",
            DISABLE_ERROR_REPORTING="1",
        )
        steps = [Step(argv, 60, ctx.repo) for argv in commands(ctx.blocks["claude-code"], "claude")]
        steps.append(Step([sys.executable, __file__, "--disable-mcp-json", str(ctx.home), str(ctx.repo)], 10))
        steps.append(
            Step(
                ["claude", "-p", standin.PROMPT, "--allowedTools", "mcp__todo", "--output-format", "text"],
                self.timeout,
                ctx.repo,
            )
        )
        return steps


def disable_mcp_json(home: Path, repo: Path) -> None:
    """Claude Code loads this checkout's `.mcp.json` too: switch its servers off for
    the run, in the temporary ~/.claude.json, as its approval dialog would."""
    config_path = home / ".claude.json"
    config = json.loads(config_path.read_text())
    servers = list(json.loads((repo / ".mcp.json").read_text()).get("mcpServers", {}))
    for key, project in config.get("projects", {}).items():
        if Path(key).resolve() == repo.resolve():
            project["disabledMcpjsonServers"] = servers
    config_path.write_text(json.dumps(config, indent=2))


class Codex(Host):
    name = "codex"
    api = "responses"

    def available(self):
        return npm_host_missing("codex")

    def version(self, ctx):
        return npm_version("@openai/codex")

    def setup(self, ctx):
        codex_home = ctx.home / ".codex"
        codex_home.mkdir(parents=True, exist_ok=True)
        ctx.env["CODEX_HOME"] = str(codex_home)
        preamble = f"""# The harness's part: the stand-in model, no approvals, no update check.
model = "standin-model"
model_provider = "standin"
approval_policy = "never"
check_for_update_on_startup = false

[model_providers.standin]
name = "stand-in"
base_url = "{ctx.url}/v1"
wire_api = "responses"

# README's block:
"""
        (codex_home / "config.toml").write_text(preamble + ctx.blocks["codex"])
        return [
            Step(
                ["codex", "exec", "--strict-config", "--skip-git-repo-check", standin.PROMPT],
                self.timeout,
                ctx.repo,
            )
        ]


class GeminiCli(Host):
    name = "gemini-cli"
    api = "gemini"

    def available(self):
        return npm_host_missing("gemini")

    def version(self, ctx):
        return npm_version("@google/gemini-cli")

    def setup(self, ctx):
        ctx.env.update(GEMINI_API_KEY="standin", GOOGLE_GEMINI_BASE_URL=ctx.url)
        steps = [Step(argv, 60, ctx.repo) for argv in commands(ctx.blocks["gemini-cli"], "gemini")]
        steps.append(Step([sys.executable, __file__, "--gemini-settings", str(ctx.home)], 10))
        steps.append(Step(["gemini", "--yolo", "--skip-trust", "-p", standin.PROMPT], self.timeout, ctx.repo))
        return steps


def gemini_settings(home: Path) -> None:
    """The API-key auth (else it asks how to log in), no usage statistics, no
    telemetry, no update check: merged into what `gemini mcp add` wrote."""
    path = home / ".gemini" / "settings.json"
    settings = json.loads(path.read_text()) if path.exists() else {}
    settings.setdefault("security", {}).setdefault("auth", {})["selectedType"] = "gemini-api-key"
    settings.setdefault("privacy", {})["usageStatisticsEnabled"] = False
    settings.setdefault("telemetry", {})["enabled"] = False
    general = settings.setdefault("general", {})
    general["enableAutoUpdate"] = False
    general["enableAutoUpdateNotification"] = False
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(settings, indent=2))


class AiSdk(Host):
    name = "ai-sdk"
    api = "chat"

    def available(self):
        if not (HOSTS_DIR / "npm" / "node_modules" / "ai").exists():
            return "the AI SDK is not installed: run examples/e2e/hosts/install.sh"
        return None

    def version(self, ctx):
        return f"ai {npm_version('ai')}, @ai-sdk/mcp {npm_version('@ai-sdk/mcp')}"

    def setup(self, ctx):
        script = HOSTS_DIR / "npm" / "ai_sdk.mjs"
        shutil.copyfile(HERE / "ai_sdk.mjs", script)
        config = ctx.write_mcp_json()
        return [Step(["node", str(script), str(config), f"{ctx.url}/v1", standin.PROMPT], self.timeout, ctx.repo)]


class Framework(Host):
    """A Python framework in its venv, run by frameworks.py."""

    venv = ""
    package = ""

    def __init__(self, name: str, package: str, api: str) -> None:
        self.name = self.venv = name
        self.package = package
        self.api = api

    def python(self) -> Path:
        return HOSTS_DIR / f"venv-{self.venv}" / "bin" / "python"

    def available(self):
        if not self.python().exists():
            return f"{self.python()} is missing: run examples/e2e/hosts/install.sh"
        return None

    def version(self, ctx):
        out = subprocess.run(
            [str(self.python()), "-c", f"import importlib.metadata as m; print(m.version({self.package!r}))"],
            capture_output=True,
            text=True,
        )
        return out.stdout.strip() or "?"

    def setup(self, ctx):
        config = ctx.write_mcp_json()
        if self.name == "openai-agents":
            ctx.env.update(OPENAI_BASE_URL=f"{ctx.url}/v1", OPENAI_API_KEY="standin")
            ctx.env["OPENAI_AGENTS_DISABLE_TRACING"] = "1"
        if self.name == "fast-agent":
            server = json.loads(config.read_text())["mcpServers"]["todo"]
            (ctx.dir / "fastagent.config.yaml").write_text(
                json.dumps(
                    {
                        "default_model": "generic.standin-model",
                        "generic": {"api_key": "standin", "base_url": f"{ctx.url}/v1"},
                        "logger": {"progress_display": False, "show_chat": False, "show_tools": False},
                        "mcp": {"servers": {"todo": {"command": server["command"], "args": server["args"]}}},
                    },
                    indent=2,
                )
            )
        return [
            Step(
                [str(self.python()), str(HERE / "frameworks.py"), self.name, str(config), f"{ctx.url}/v1", standin.PROMPT],
                self.timeout,
                ctx.repo,
            )
        ]


HOSTS: list[Host] = [
    ClaudeCode(),
    Codex(),
    GeminiCli(),
    AiSdk(),
    Framework("openai-agents", "openai-agents", "responses"),
    Framework("langchain", "langchain-mcp-adapters", "chat"),
    Framework("pydantic-ai", "pydantic-ai-slim", "chat"),
    Framework("fast-agent", "fast-agent-mcp", "chat"),
]


# ---------------------------------------------------------------------------
# Running


def write_shim(
    bin_dir: Path, real: Path, log_dir: Path, mark: str, env: dict[str, str], extra_args: list[str]
) -> None:
    text = (HERE / "shim.py").read_text()
    text = text.replace('"@REAL@"', repr(str(real)))
    text = text.replace('"@LOG_DIR@"', repr(str(log_dir)))
    text = text.replace('"@MARK@"', repr(mark))
    text = text.replace('"@ENV@"', repr(json.dumps(env)))
    text = text.replace('"@ARGS@"', repr(json.dumps(extra_args)))
    shim = bin_dir / "taria-mcp"
    shim.write_text(f"#!{sys.executable}\n" + text)
    shim.chmod(0o755)


def marked_pids(mark: str) -> list[int]:
    """The processes this run started: they carry `mark` in their environment."""
    needle = mark.encode() + b"\0"
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if needle in (entry / "environ").read_bytes():
                pids.append(int(entry.name))
        except OSError:
            pass
    return pids


def end_marked(mark: str) -> int:
    """SIGTERM, 2 s, SIGKILL, to what is left of the run; how many there were."""
    pids = marked_pids(mark)
    for pid in pids:
        try:
            os.kill(pid, signal.SIGTERM)
        except OSError:
            pass
    deadline = time.time() + 2
    while time.time() < deadline and marked_pids(mark):
        time.sleep(0.1)
    for pid in marked_pids(mark):
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    return len(pids)


def run_step(step: Step, env: dict[str, str], out_dir: Path, index: int) -> dict:
    stdout = (out_dir / f"step{index}.out").open("wb")
    stderr = (out_dir / f"step{index}.err").open("wb")
    started = time.time()
    proc = subprocess.Popen(
        step.argv,
        cwd=step.cwd,
        env={**env, **step.env},
        stdin=subprocess.DEVNULL,
        stdout=stdout,
        stderr=stderr,
        start_new_session=True,
    )
    timed_out = False
    try:
        proc.wait(timeout=step.timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=3)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    else:
        # what the host left in its group (a server it did not stop)
        try:
            os.killpg(proc.pid, signal.SIGTERM)
        except OSError:
            pass
    stdout.close()
    stderr.close()
    return {
        "argv": step.argv,
        "exit": proc.returncode,
        "timed_out": timed_out,
        "seconds": round(time.time() - started, 1),
        "stdout": (out_dir / f"step{index}.out").read_text(errors="replace")[-4000:],
        "stderr": (out_dir / f"step{index}.err").read_text(errors="replace")[-4000:],
    }


def toolchain_env() -> dict[str, str]:
    """RUSTUP_HOME and CARGO_HOME as they are now, so a temporary HOME still finds
    the toolchain `cargo run --example todo` needs; and cargo's directory on PATH.
    Also the build's own settings from the environment (`CARGO_INCREMENTAL`,
    `CARGO_PROFILE_*`, `RUSTFLAGS`, …; .ci/run sets some): Codex, the AI SDK and
    openai-agents start a server with a few variables only, and `cargo run` under other
    settings rebuilds the whole app (minutes) where the warm-up build is reused."""
    home = Path.home()
    env = {
        k: v for k, v in os.environ.items()
        if (k.startswith("CARGO_") and k != "CARGO_HOME") or k in ("RUSTFLAGS", "RUSTDOCFLAGS")
    }
    env.update({
        "RUSTUP_HOME": os.environ.get("RUSTUP_HOME") or str(home / ".rustup"),
        "CARGO_HOME": os.environ.get("CARGO_HOME") or str(home / ".cargo"),
    })
    cargo = shutil.which("cargo")
    if cargo:
        env["TARIA_CARGO_DIR"] = str(Path(cargo).parent)
    return env


def run_host(host: Host, repo: Path, blocks: dict[str, str], out: Path, bridge_args: list[str]) -> dict:
    report: dict = {"host": host.name, "api": host.api}
    missing = host.available()
    if missing:
        report.update(version="-", error=missing, passed=False)
        return report
    run_dir = out / host.name
    if run_dir.exists():
        shutil.rmtree(run_dir)
    home = run_dir / "home"
    bin_dir = run_dir / "bin"
    log_dir = run_dir / "bridge"
    for d in (home, bin_dir, log_dir):
        d.mkdir(parents=True)
    mark = f"{MARK_VAR}={uuid.uuid4().hex}"
    tool_env = toolchain_env()
    write_shim(bin_dir, repo / "target" / "debug" / "taria-mcp", log_dir, mark, tool_env, bridge_args)

    env = {k: v for k, v in os.environ.items() if not DROPPED_ENV.match(k)}
    path = [str(bin_dir), str(repo / "target" / "debug"), str(NPM_BIN), os.environ.get("PATH", "")]
    if "TARIA_CARGO_DIR" in tool_env:
        path.append(tool_env["TARIA_CARGO_DIR"])
    env.update(
        HOME=str(home),
        PATH=os.pathsep.join(path),
        XDG_CONFIG_HOME=str(home / ".config"),
        XDG_CACHE_HOME=str(home / ".cache"),
        XDG_DATA_HOME=str(home / ".local" / "share"),
        XDG_STATE_HOME=str(home / ".local" / "state"),
        RUSTUP_HOME=tool_env["RUSTUP_HOME"],
        CARGO_HOME=tool_env["CARGO_HOME"],
        NO_COLOR="1",
        CI="1",
    )
    env[MARK_VAR] = mark.partition("=")[2]

    model = standin.StandIn(run_dir / "model.jsonl")
    port = model.start()
    ctx = Ctx(host.name, run_dir, home, repo, f"http://127.0.0.1:{port}", blocks, env)
    started = time.time()
    steps_done = []
    try:
        report["version"] = host.version(ctx)
        steps = host.setup(ctx)
        for index, step in enumerate(steps):
            result = run_step(step, ctx.env, run_dir, index)
            steps_done.append(result)
            if result["exit"] != 0 or result["timed_out"]:
                break
    finally:
        report["leftover_processes"] = end_marked(mark)
        model.stop()
    report["seconds"] = round(time.time() - started, 1)
    report["steps"] = steps_done
    report.update(analyse(host, model.requests, log_dir, steps_done))
    (run_dir / "report.json").write_text(json.dumps(report, indent=2))
    return report


# ---------------------------------------------------------------------------
# What the bridge wrote


def bridge_sessions(log_dir: Path) -> list[dict]:
    """Per shim log (one bridge process): its tools/list and its tools/call answers."""
    sessions = []
    for path in sorted(log_dir.glob("shim-*.jsonl")):
        requests: dict = {}
        session = {"log": path.name, "argv": None, "initialized": False, "tools": None, "calls": []}
        for line in path.read_text().splitlines():
            entry = json.loads(line)
            if entry["dir"] == "argv":
                session["argv"] = json.loads(entry["line"])
                continue
            if entry["dir"] not in ("in", "out"):
                continue
            try:
                message = json.loads(entry["line"])
            except ValueError:
                continue
            if entry["dir"] == "in" and "method" in message and "id" in message:
                requests[json.dumps(message["id"])] = message
            elif entry["dir"] == "out" and "id" in message and "method" not in message:
                request = requests.get(json.dumps(message["id"]))
                if not request:
                    continue
                if request["method"] in ("initialize", "server/discover") and "result" in message:
                    session["initialized"] = True
                elif request["method"] == "tools/list" and "result" in message:
                    session["tools"] = message["result"].get("tools")
                elif request["method"] == "tools/call":
                    session["calls"].append(
                        {
                            "name": request["params"].get("name"),
                            "arguments": request["params"].get("arguments") or {},
                            "result": message.get("result"),
                            "error": message.get("error"),
                        }
                    )
        sessions.append(session)
    return sessions


def matches_script(call: dict, step: int) -> bool:
    base, args = standin.SCRIPT[step]
    if call["name"] != base:
        return False
    return all(call["arguments"].get(k) == v for k, v in args.items())


def bridge_texts(result: dict | None) -> list[str]:
    if not result:
        return []
    return [c.get("text", "") for c in result.get("content") or [] if c.get("type") == "text"]


# ---------------------------------------------------------------------------
# What the model was given


def compact(value) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def utf8(text: str) -> int:
    return len(text.encode("utf-8"))


def text_blocks(value) -> list[str] | None:
    """The texts of a list of text blocks ({"type": "text"/"input_text"/"output_text",
    "text": ...}), or None if it is not one."""
    if not isinstance(value, list) or not value:
        return None
    texts = []
    for block in value:
        if not isinstance(block, dict) or not isinstance(block.get("text"), str):
            return None
        if block.get("type") not in ("text", "input_text", "output_text", None):
            return None
        texts.append(block["text"])
    return texts


CODEX_BLOCK = re.compile(r"Wall time: [0-9.]+ seconds\nOutput:")
CODEX_HEADER = re.compile(r"Wall time: [0-9.]+ seconds\nOutput:\n(.*)", re.S)
UNTRUSTED = re.compile(r"<untrusted_context>\n(.*)\n</untrusted_context>", re.S)
GEMINI_ERROR = re.compile(r"MCP tool '.*?' reported tool error for function call: .*? with response: (\[.*\])", re.S)


def _json(text: str):
    try:
        return json.loads(text)
    except ValueError:
        return None


def unwrap(given) -> list[tuple[str, list[str]]]:
    """The ways the host's wrappers can be read off what it gave the model as a
    result: (wrapper, the texts inside). Each is a wrapper seen on one of the hosts;
    the texts must then equal the bridge's exactly."""
    ways: list[tuple[str, list[str]]] = []

    def from_string(s: str) -> None:
        ways.append(("text", [s]))
        if m := CODEX_HEADER.fullmatch(s):
            ways.append(('"Wall time: …\\nOutput:\\n" + text', [m.group(1)]))
        if m := UNTRUSTED.fullmatch(s):
            ways.append(("<untrusted_context>…", [m.group(1)]))
        if m := GEMINI_ERROR.fullmatch(s):
            for response in _json(m.group(1)) or []:
                content = ((response.get("functionResponse") or {}).get("response") or {}).get("content")
                if text_blocks(content) is not None:
                    ways.append((
                        '"MCP tool … with response: " + result JSON',
                        text_blocks(content),
                    ))
        decoded = _json(s)
        if isinstance(decoded, str):
            ways.append(("JSON string", [decoded]))
        elif isinstance(decoded, list) and text_blocks(decoded) is not None:
            ways.append(("JSON [{type:text,text}]", text_blocks(decoded)))
        elif isinstance(decoded, list) and decoded and all(isinstance(t, str) for t in decoded):
            ways.append(("JSON [text, …]", decoded))
        elif isinstance(decoded, dict):
            if decoded.get("type") == "text" and isinstance(decoded.get("text"), str):
                ways.append(("JSON {type:text,text}", [decoded["text"]]))
            elif text_blocks(decoded.get("content")) is not None:
                ways.append(("JSON CallToolResult", text_blocks(decoded["content"])))
            elif len(decoded) == 1:
                key, value = next(iter(decoded.items()))
                if isinstance(value, str):
                    ways.append((f"JSON {{{key}:text}}", [value]))

    if isinstance(given, str):
        from_string(given)
    elif isinstance(given, list) and text_blocks(given) is not None:
        blocks = text_blocks(given)
        ways.append(("text blocks", blocks))
        if len(blocks) > 1 and CODEX_BLOCK.fullmatch(blocks[0]):
            ways.append(('text blocks: "Wall time: …\\nOutput:", text', blocks[1:]))
        if len(blocks) == 1:
            for how, texts in unwrap(blocks[0]):
                if how != "text":
                    ways.append((f"text block: {how}", texts))
    elif isinstance(given, dict):
        for key, value in given.items():
            if isinstance(value, str):
                before = len(ways)
                from_string(value)
                ways[before:] = [(f"{{{key}: {how}}}", texts) for how, texts in ways[before:]]
            elif text_blocks(value) is not None:
                ways.append((f"{{{key}: text blocks}}", text_blocks(value)))
            elif isinstance(value, dict) and text_blocks(value.get("content")) is not None:
                ways.append((f"{{{key}: the CallToolResult}}", text_blocks(value["content"])))
    return ways


def as_read(given) -> str:
    """What the model reads of a result: a string whole; Gemini's functionResponse
    `response` object as its JSON; a list of text blocks (API-level structure,
    which the API renders itself) as its texts."""
    if isinstance(given, str):
        return given
    blocks = text_blocks(given)
    if blocks is not None:
        return "".join(blocks)
    return compact(given)


def _escaped(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)[1:-1]


def bridge_share(given, texts: list[str], structured) -> tuple[int, int]:
    """Of what the model reads: the bytes of the bridge's result in it, counted as the
    bridge wrote them (each text, and structuredContent if the host passed it on,
    found raw or JSON-escaped once or twice), and the bytes the host adds (headers,
    tags, JSON keys, escapes)."""
    read = as_read(given)
    rest = read
    share = 0

    def take(forms: list[str], size: int) -> None:
        nonlocal rest, share
        for encoded in forms:
            if encoded and encoded in rest:
                rest = rest.replace(encoded, "", 1)
                share += size
                return

    for text in texts:
        take([_escaped(_escaped(text)), _escaped(text), text], utf8(text))
    if structured is not None:
        forms = []
        for form in (compact(structured), json.dumps(structured, ensure_ascii=False), json.dumps(structured)):
            forms += [_escaped(_escaped(form)), _escaped(form), form]
        take(forms, utf8(compact(structured)))
    return share, utf8(read) - share


def describe_mismatch(given, result: dict | None) -> str:
    """What the host gave instead of the text, as far as it can be told."""
    structured = (result or {}).get("structuredContent")
    candidates = [given]
    if isinstance(given, str):
        candidates.append(_json(given))
        if m := CODEX_HEADER.fullmatch(given):
            candidates.append(_json(m.group(1)))
    for text in text_blocks(given) or []:
        candidates.append(_json(text))
    if isinstance(given, dict):
        for value in given.values():
            candidates.append(value)
            if isinstance(value, str):
                candidates.append(_json(value))
    for candidate in candidates:
        if structured is not None and candidate == structured:
            return "structuredContent JSON, not the text"
        if isinstance(candidate, dict) and len(candidate) == 1:
            inner = next(iter(candidate.values()))
            if structured is not None and isinstance(inner, str) and _json(inner) == structured:
                return f"JSON {{{next(iter(candidate))}: structuredContent JSON}}, not the text"
    if structured is not None and compact(structured) in as_read(given).replace('\\"', '"').replace("\\\\", "\\"):
        return "text + structuredContent"
    return "other: " + compact(given)[:80]


# How each host gives the model the picture step's image (`read_tree {format:
# "picture"}`): "image" (an image the model sees: an image block in the result, or
# beside it), "as text" (its base64 inside text the model reads), "dropped" (the model
# gets the text line alone). A host whose delivery changes fails until this table and
# README's are updated: neither may go stale.
PICTURE_DELIVERY = {
    "claude-code": "image",
    "codex": "image",
    "gemini-cli": "image",
    "ai-sdk": "as text",
    "openai-agents": "image",
    "langchain": "image",
    "pydantic-ai": "image",
    "fast-agent": "dropped",
}
IMAGE_BLOCKS = ("image", "input_image", "image_url", "file")
# gemini-cli's note after the text when it moves an image into a part of its own.
GEMINI_IMAGE_NOTE = re.compile(r"\n\[Tool '[^']*' provided the following image data with mime-type: [^\]]*\]$")
# pydantic-ai's stand-in for an image it moves into a user message.
PYDANTIC_FILE = re.compile(r"See file \w+\.")
# Claude Code's block after the image: where it saved it.
CLAUDE_IMAGE_NOTE = re.compile(r"\[Image: source: [^\]]*\]")


def bridge_image(result: dict | None) -> str | None:
    """The base64 of the image in the bridge's result, if any."""
    for block in (result or {}).get("content") or []:
        if block.get("type") == "image":
            return block.get("data")
    return None


def picture_delivery(body, data: str) -> str:
    """How the request `body` gives the model the image whose base64 is `data`: as a
    string of its own (an image's data or a data: URL), inside a longer text, or not."""
    probe = data[:200]
    found = "dropped"

    def walk(value) -> None:
        nonlocal found
        if isinstance(value, str):
            if value == data or value.endswith("base64," + data):
                found = "image"
            elif probe in value and found == "dropped":
                found = "as text"
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)

    walk(body)
    return found


def without_images(given, keep_notes: bool = False):
    """The result `given` without its image blocks (in a list of blocks, or in one
    encoded as a JSON string) and, unless `keep_notes`, without the words a host puts
    in the image's place or beside it (gemini-cli's note, pydantic-ai's "See file …",
    Claude Code's "[Image: source: …]")."""
    def blocks(items: list) -> list:
        kept = [b for b in items if not (isinstance(b, dict) and b.get("type") in IMAGE_BLOCKS)]
        if not keep_notes:
            kept = [b for b in kept if not (isinstance(b, str) and PYDANTIC_FILE.fullmatch(b))]
            kept = [
                b for b in kept
                if not (isinstance(b, dict) and CLAUDE_IMAGE_NOTE.fullmatch(str(b.get("text"))))
            ]
        return kept

    if isinstance(given, list):
        return blocks(given)
    if isinstance(given, str):
        decoded = _json(given)
        if isinstance(decoded, list):
            return compact(blocks(decoded))
        return given
    if isinstance(given, dict) and not keep_notes:
        return {k: GEMINI_IMAGE_NOTE.sub("", v) if isinstance(v, str) else v for k, v in given.items()}
    return given


def analyse(host: Host, requests: list[dict], log_dir: Path, steps: list[dict]) -> dict:
    sessions = bridge_sessions(log_dir)
    bridge_tools = next((s["tools"] for s in sessions if s["tools"]), None)
    main = [r for r in requests if r.get("kind") == "main" and r.get("api") == host.api]
    offered_in: dict | None = None
    for request in main:
        offered = standin.offered_tools(request["body"])
        names = standin.taria_tool_names(offered)
        if "read_tree" in names:
            offered_in = {base: offered[name] for base, name in names.items()}
            break
    out: dict = {
        "bridge_started": len(sessions),
        "connected": bool(bridge_tools) and any(s["initialized"] for s in sessions) and offered_in is not None,
        "tools_offered": sorted(offered_in or {}),
        "side_requests": sum(1 for r in requests if r.get("kind") == "side"),
        "main_requests": len(main),
    }
    if bridge_tools:
        bridge_bytes = utf8(compact(bridge_tools))
        given_bytes = utf8(compact(list((offered_in or {}).values())))
        out["tools_bytes"] = {
            "bridge_tools_list": bridge_bytes,
            "given": given_bytes,
            "ratio": round(given_bytes / bridge_bytes, 3) if offered_in else None,
        }
    # The last main request carries every result the model was given.
    issued: dict[int, str] = {}
    for request in main:
        answer = request.get("answer") or {}
        if isinstance(request.get("step"), int) and answer.get("id"):
            issued.setdefault(request["step"], answer["id"])
    carried: dict[int, dict] = {}
    # The request that first gave the model each step's result (the turn right after
    # it, where a host that drops older images still shows this one).
    first_given: dict[int, dict] = {}
    for request in main:
        taria_results = []
        for result in standin.results_in(host.api, request["body"]):
            step = next((s for s, i in issued.items() if i == result["id"]), None)
            if step is None and host.api == "gemini" and result["name"] and any(
                result["name"].endswith(b) for b in standin.TOOLS
            ):
                step = len(taria_results)
            if step is not None:
                taria_results.append(step)
                carried[step] = result
                first_given.setdefault(step, request["body"])
    all_calls = [c for s in sessions for c in s["calls"]]
    results = []
    for step, (base, args) in enumerate(standin.SCRIPT):
        call = next((c for c in all_calls if matches_script(c, step)), None)
        given = carried.get(step)
        entry: dict = {"step": step, "call": f"{base} {compact(args)}"}
        if call is None:
            entry.update(ok=False, why="the bridge got no such call")
            results.append(entry)
            continue
        result = call["result"] or {}
        texts = bridge_texts(result)
        text = "".join(texts)
        entry.update(
            bridge_text_bytes=utf8(text),
            is_error=bool(result.get("isError")),
            structured=result.get("structuredContent") is not None,
            bridge_text=text,
            arguments_sent=call["arguments"],
        )
        if call["error"]:
            entry.update(ok=False, why=f"JSON-RPC error {compact(call['error'])[:200]}")
        if given is None:
            entry.update(ok=False, why="the model was not given the result")
            results.append(entry)
            continue
        content = given["content"]
        matchable = content
        if (data := bridge_image(result)) is not None:
            delivery = picture_delivery(first_given[step], data)
            entry["picture"] = delivery
            # An image the model sees is billed as an image, not as the text it is
            # sent in; base64 inside text is read as text, and counts.
            if delivery != "as text":
                content = without_images(content, keep_notes=True)
            matchable = without_images(content)
        read = utf8(as_read(content))
        share, added = bridge_share(content, texts, result.get("structuredContent"))
        bridge_bytes = max(1, utf8(text))
        entry.update(
            given=content,
            given_bytes=read,
            raw_ratio=round(read / bridge_bytes, 3),
            bridge_share_bytes=share,
            host_added_bytes=added,
            ratio=round(share / bridge_bytes, 3),
        )
        match = next((w for w, t in unwrap(matchable) if t == texts or "".join(t) == text), None)
        if match:
            entry.update(ok=True, wrapper=match)
        elif "ok" not in entry:
            entry.update(ok=False, why=describe_mismatch(matchable, result), wrapper=None)
        results.append(entry)
    out["results"] = results

    # The script's own outcomes: a check of the run, not of the host.
    expected = ["ok", "ok", "ok", "action_unsupported", "not_found", "ok"]
    outcomes = []
    for entry, want in zip(results, expected):
        text = entry.get("bridge_text") or ""
        if "bridge_text" not in entry:
            outcomes.append("missing")
        elif want == "ok":
            outcomes.append("ok" if not entry["is_error"] else text.split(":")[0][:40])
        else:
            outcomes.append("ok" if entry["is_error"] and want in text else (text.split(":")[0][:40] or "?"))
    out["outcomes"] = outcomes
    extras_step = results[standin.EXTRAS_STEP] if len(results) > standin.EXTRAS_STEP else {}
    base_schema = next((t["inputSchema"] for t in bridge_tools or [] if t["name"] == "act"), {})
    added = sorted(set(extras_step.get("arguments_sent", {})) - set(base_schema.get("properties", {})))
    refused = [r["step"] for r in results if "unknown field" in (r.get("bridge_text") or "")]
    out["extras"] = {"added": added, "refused_in_steps": refused}
    picture = results[standin.PICTURE_STEP] if len(results) > standin.PICTURE_STEP else {}
    out["picture"] = picture.get("picture", "missing")
    out["picture_expected"] = PICTURE_DELIVERY.get(host.name, "?")
    last = steps[-1] if steps else {}
    out["finished"] = bool(last) and last.get("exit") == 0 and standin.FINAL_TEXT in last.get("stdout", "")
    out["timed_out"] = bool(last.get("timed_out"))
    ratios = [r["ratio"] for r in results if "ratio" in r]
    out["max_ratio"] = max(ratios) if ratios else None
    raw = [r["raw_ratio"] for r in results if "raw_ratio" in r]
    out["max_raw_ratio"] = max(raw) if raw else None
    if len(ratios) == len(results):
        out["total_raw_ratio"] = round(
            sum(r["given_bytes"] for r in results) / max(1, sum(r["bridge_text_bytes"] for r in results)), 3
        )
    out["passed"] = bool(
        out["connected"]
        and len(out["tools_offered"]) == len(standin.TOOLS)
        and all(r.get("ok") for r in results)
        and out["max_ratio"] is not None
        and out["max_ratio"] <= RATIO_TARGET
        and not refused
        and outcomes == ["ok"] * len(standin.SCRIPT)
        and out["picture"] == out["picture_expected"]
        and out["finished"]
    )
    return out


# ---------------------------------------------------------------------------
# Output


def row(report: dict) -> list[str]:
    if "results" not in report:
        return [report["host"], report.get("version", "-"), "-", "-", "-", "-", "-", "-", "-", "FAIL: " + report["error"]]
    results = report["results"]
    exact = sum(1 for r in results if r.get("ok"))
    wrappers = list(dict.fromkeys(r["wrapper"] for r in results if r.get("wrapper")))
    mismatches = list(dict.fromkeys(r["why"] for r in results if not r.get("ok") and r.get("why")))
    wrapper = " / ".join(wrappers)
    if mismatches:
        wrapper += (" | " if wrappers else "") + "NOT TEXT: " + "; ".join(m[:60] for m in mismatches)
    extras = report["extras"]
    if extras["refused_in_steps"]:
        extras_cell = "NO: refused " + ",".join(extras["added"] or ["?"])
    else:
        extras_cell = ("yes: " + ",".join(extras["added"])) if extras["added"] else "yes (none added)"
    failures = []
    if not report["connected"]:
        failures.append("not connected")
    if report["outcomes"] != ["ok"] * len(standin.SCRIPT):
        failures.append("outcomes " + "/".join(report["outcomes"]))
    if report["picture"] != report["picture_expected"]:
        failures.append(f"picture {report['picture']}, not {report['picture_expected']} as documented")
    if not report["finished"]:
        failures.append("timed out" if report["timed_out"] else "no final answer")
    exact_count = sum(1 for r in results if r.get("ok"))
    if exact_count < len(results):
        failures.append(f"text-exact {exact_count}/{len(results)}")
    if report["max_ratio"] is not None and report["max_ratio"] > RATIO_TARGET:
        failures.append(f"ratio > {RATIO_TARGET}x")
    if extras["refused_in_steps"]:
        failures.append("extras refused")
    if report.get("strict_ratio_failed"):
        failures.append(f"read > {RATIO_TARGET}x")
    verdict = "pass" if report["passed"] else "FAIL" + (f" ({'; '.join(failures)})" if failures else "")
    share, raw = report["max_ratio"], report.get("max_raw_ratio")
    ratio = f"{share:.2f}x ({raw:.2f}x)" if share is not None else "-"
    return [
        report["host"],
        report["version"],
        "yes" if report["connected"] else "no",
        f"{len(report['tools_offered'])}/{len(standin.TOOLS)}",
        f"{exact}/{len(results)}",
        wrapper,
        ratio,
        extras_cell,
        report["picture"],
        verdict,
    ]


def table(rows: list[list[str]]) -> str:
    head = ["host", "version", "connected", "tools", "text-exact", "wrapper", "ratio (as read)",
            "extras tolerated", "picture", "result"]
    rows = [head] + rows
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    lines = ["  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def details(report: dict) -> str:
    if "results" not in report:
        return f"{report['host']}: {report.get('error')}"
    tb = report.get("tools_bytes") or {}
    parts = [
        f"{report['host']}: {report['seconds']}s, bridge started {report['bridge_started']}x, "
        f"{report['main_requests']} turns + {report['side_requests']} side requests; "
        f"tools/list {tb.get('bridge_tools_list', '?')} B, the model's tool declarations "
        f"{tb.get('given', '?')} B ({tb.get('ratio')}x)",
        "  results (bytes): read by the model / the bridge's text = ratio as read [the bridge's share, "
        "host's additions]: "
        + ", ".join(
            f"{r.get('given_bytes', '-')}/{r.get('bridge_text_bytes', '-')} = {r.get('raw_ratio', '-')}x "
            f"[{r.get('bridge_share_bytes', '-')}, +{r.get('host_added_bytes', '-')}]"
            for r in report["results"]
        )
        + f"; in all {report.get('total_raw_ratio')}x as read",
    ]
    if report.get("leftover_processes"):
        parts.append(f"  ended {report['leftover_processes']} processes the host left behind")
    return "\n".join(parts)


def check_blocks(blocks: dict[str, str]) -> list[str]:
    """README's blocks name one command: the generic line, mcp.json, VS Code, Codex."""
    problems = []
    need = ["claude-code", "codex", "gemini-cli", "mcp-json", "vscode", "generic"]
    for name in need:
        if name not in blocks:
            problems.append(f"README has no <!-- host:{name} --> block")
    if problems:
        return problems
    generic = shlex.split(blocks["generic"], comments=True)
    cursor = json.loads(blocks["mcp-json"])["mcpServers"]["todo"]
    vscode = json.loads(blocks["vscode"])["servers"]["todo"]
    codex = tomllib.loads(blocks["codex"])["mcp_servers"]["todo"]
    for label, server in (("mcp.json", cursor), ("VS Code", vscode), ("Codex", codex)):
        if [server["command"], *server["args"]] != generic:
            problems.append(f"README's {label} block does not run the generic command line {generic}")
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description="Run real MCP hosts against a stand-in model.")
    parser.add_argument("--check", action="store_true", help="exit 1 if a host fails")
    parser.add_argument("--only", action="append", help="run only this host (repeatable)")
    parser.add_argument("--out", type=Path, help="keep every run's files here")
    parser.add_argument(
        "--repo",
        type=Path,
        default=ROOT,
        help="the built checkout the hosts run in (its target/debug, `cargo run`); README is this one's",
    )
    parser.add_argument("--readme", type=Path, default=ROOT / "README.md", help="read the hosts' blocks from this file")
    parser.add_argument(
        "--strict-ratio",
        action="store_true",
        help=f"fail a host whose results as read exceed {RATIO_TARGET}x the bridge's text, "
        "its own wrapper included (by default only the bridge's share counts)",
    )
    parser.add_argument("--timeout", type=float, default=90, help="seconds per host run")
    parser.add_argument(
        "--bridge-arg",
        action="append",
        metavar="ARG",
        help="an option the shim gives the bridge before README's (a control: --bridge-arg=--structured "
        "makes the hosts that show structuredContent fail)",
    )
    parser.add_argument("--no-netns", action="store_true", help="do not isolate the network")
    parser.add_argument("--disable-mcp-json", nargs=2, help=argparse.SUPPRESS)
    parser.add_argument("--gemini-settings", nargs=1, help=argparse.SUPPRESS)
    parser.add_argument("--in-netns", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.disable_mcp_json:
        disable_mcp_json(Path(args.disable_mcp_json[0]), Path(args.disable_mcp_json[1]))
        return 0
    if args.gemini_settings:
        gemini_settings(Path(args.gemini_settings[0]))
        return 0

    # Everything after this runs in a network namespace with only a loopback, when
    # it can be had: the hosts can reach the stand-in and nothing else.
    if not args.no_netns and not args.in_netns and shutil.which("unshare") and shutil.which("ip"):
        script = 'ip link set lo up && exec "$@"'
        # as root; else in a user namespace of its own, where one is allowed
        for unshare in (["unshare", "--net"], ["unshare", "--user", "--map-root-user", "--net"]):
            probe = subprocess.run([*unshare, "sh", "-c", script, "sh", "true"], capture_output=True)
            if probe.returncode == 0:
                argv = [sys.executable, os.path.abspath(__file__), *sys.argv[1:], "--in-netns"]
                return subprocess.call([*unshare, "sh", "-c", script, "sh", *argv])
        print("note: no network namespace (unshare failed): hosts are not isolated", file=sys.stderr)

    repo = args.repo.resolve()
    for binary in ("taria-mcp", "examples/todo"):
        if not (repo / "target" / "debug" / binary).exists():
            print(f"{repo}/target/debug/{binary} is missing: run "
                  "`cargo build --workspace --all-features --examples --bins`", file=sys.stderr)
            return 2
    blocks = readme_blocks(args.readme.resolve())
    problems = check_blocks(blocks)
    if problems:
        print("\n".join(problems), file=sys.stderr)
        return 2
    hosts = [h for h in HOSTS if not args.only or h.name in args.only]
    if args.only and len(hosts) != len(set(args.only)):
        print(f"unknown host; the hosts: {', '.join(h.name for h in HOSTS)}", file=sys.stderr)
        return 2
    for host in hosts:
        host.timeout = args.timeout

    out = args.out.resolve() if args.out else Path(tempfile.mkdtemp(prefix="taria-hosts-"))
    out.mkdir(parents=True, exist_ok=True)
    started = time.time()
    # README's `cargo run --example todo` builds the example with its default
    # features, which the --all-features build did not: build it once here, so no
    # host's first call waits for a compile.
    warm = subprocess.run(["cargo", "build", "--quiet", "--example", "todo"], cwd=repo)
    if warm.returncode != 0:
        print("cargo build --example todo failed", file=sys.stderr)
        return 2
    warm_seconds = time.time() - started
    git = subprocess.run(["git", "-C", str(repo), "log", "-1", "--format=%h %s"], capture_output=True, text=True)
    print(
        f"bridge: {repo}/target/debug/taria-mcp {' '.join(args.bridge_arg or [])}"
        f" ({git.stdout.strip()[:72] or 'not a git checkout'})"
    )
    print(f"hosts: {HOSTS_DIR}; runs: {out}; network: {'loopback only' if args.in_netns else 'not isolated'}")
    reports = []
    for host in hosts:
        report = run_host(host, repo, blocks, out, args.bridge_arg or [])
        if args.strict_ratio and report.get("max_raw_ratio") and report["max_raw_ratio"] > RATIO_TARGET:
            report["passed"] = False
            report["strict_ratio_failed"] = True
        reports.append(report)
        print(f"  {host.name}: {'pass' if report['passed'] else 'FAIL'} ({report.get('seconds', 0)}s)", flush=True)
    (out / "report.json").write_text(json.dumps(reports, indent=2))
    print()
    print(table([row(r) for r in reports]))
    print()
    for report in reports:
        print(details(report))
    print(f"\n{len(reports)} hosts in {time.time() - started:.0f}s (warm-up build {warm_seconds:.0f}s)")
    failed = [r["host"] for r in reports if not r["passed"]]
    if failed or args.out:
        print(f"each run's files and report.json: {out}/HOST/")
    else:
        shutil.rmtree(out, ignore_errors=True)
    passed = len(reports) - len(failed)
    print(f"{passed} passed, {len(failed)} failed")
    return 1 if (args.check and failed) else 0


if __name__ == "__main__":
    sys.exit(main())
