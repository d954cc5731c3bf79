"""A stand-in model server on 127.0.0.1 for the host harness (run.py).

It speaks the model APIs the hosts use: Anthropic Messages (Claude Code), OpenAI
Responses (Codex, openai-agents), OpenAI Chat Completions (langchain, pydantic-ai,
fast-agent, the AI SDK) and Gemini generateContent / streamGenerateContent
(gemini-cli), streaming (SSE) and not. Every request body is recorded.

A request that offers the taria tools (found by suffix in its tool list: hosts prefix
them, `mcp__todo__read_tree`, `todo__read_tree`, ...) is a turn of the script: the
answer is the next scripted tool call, worked out from the tool results the request
already carries (so a host's retries and side requests do not move the script), and
once every call has its result, a final text. A request that offers no taria tool
(title generation, a quota check, a next-speaker check, ...) is a side request: it
gets a plausible answer and does not count as a turn.

Stdlib only. `python3 standin.py --port 8765 --log requests.jsonl` runs it alone.
"""

from __future__ import annotations

import argparse
import gzip
import itertools
import json
import re
import threading
import time
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

# The bridge's tools, as `tools/list` names them.
TOOLS = (
    "read_tree",
    "find_nodes",
    "act",
    "type_text",
    "press_key",
    "batch",
    "wait_for_change",
    "read_logs",
    "resize",
)

# The script: the same six calls for every host, against the todo example.
SCRIPT: list[tuple[str, dict]] = [
    ("read_tree", {}),
    ("act", {"node": "tasks/2", "action": "toggle"}),
    (
        "batch",
        {
            "steps": [
                {"tool": "act", "node": "tasks/3", "action": "toggle"},
                {"tool": "act", "node": "filter/done", "action": "select"},
            ]
        },
    ),
    # filter/all is a tab: it offers select, not toggle (refused, isError).
    ("act", {"node": "filter/all", "action": "toggle"}),
    # No such node (not_found, isError).
    ("act", {"node": "tasks/999", "action": "toggle"}),
    # The screen as a PNG after a line of text: what the host makes of an image.
    ("read_tree", {"format": "picture"}),
]
# The step whose result carries an image.
PICTURE_STEP = 5
# The call that also gets the arguments a host adds to the bridge's schemas
# (gemini-cli's `wait_for_previous`), so a refusal of them shows.
EXTRAS_STEP = 1
FINAL_TEXT = "TARIA-E2E-DONE: the script ran."
PROMPT = (
    "Use the todo tools: read the tree, toggle tasks/2, then batch toggle tasks/3 "
    "and select filter/done, then try the rest of the script, and look at the screen."
)


def taria_tool_names(offered: dict[str, dict]) -> dict[str, str]:
    """The bridge's tool names mapped to the names the host offers them under:
    the offered name equal to it or ending in it after a separator, preferring
    names that carry the server's name (`todo`) when several match."""
    found: dict[str, str] = {}
    for base in TOOLS:
        pattern = re.compile(r"(?:^|[_\-.:/])" + re.escape(base) + r"$")
        matches = [name for name in offered if pattern.search(name)]
        if not matches:
            continue
        matches.sort(key=lambda n: ("todo" not in n, n != base, len(n)))
        found[base] = matches[0]
    return found


def _walk_tools(value, namespace: str | None = None) -> list[tuple[str | None, dict]]:
    """Every function declaration in a request's `tools`, whatever the API's shape:
    a dict with a name and a schema (or, for Chat Completions, its `function`), with
    the namespace it is in (Codex groups an MCP server's tools in a Responses
    `namespace` tool, `mcp__todo`)."""
    out: list[tuple[str | None, dict]] = []
    if isinstance(value, list):
        for item in value:
            out.extend(_walk_tools(item, namespace))
    elif isinstance(value, dict):
        if isinstance(value.get("function"), dict):
            out.extend(_walk_tools(value["function"], namespace))
        elif isinstance(value.get("name"), str) and any(
            k in value
            for k in ("parameters", "input_schema", "parametersJsonSchema", "inputSchema")
        ):
            out.append((namespace, value))
        else:
            if value.get("type") == "namespace" and isinstance(value.get("name"), str):
                namespace = value["name"]
            for key in ("functionDeclarations", "function_declarations", "tools"):
                if key in value:
                    out.extend(_walk_tools(value[key], namespace))
    return out


def offered_tools(body: dict) -> dict[str, dict]:
    """name -> the declaration as the request carries it; a tool in a namespace is
    named `namespace/name`."""
    return {
        (f"{ns}/{t['name']}" if ns else t["name"]): t
        for ns, t in _walk_tools(body.get("tools") or [])
    }


def split_namespace(name: str) -> tuple[str | None, str]:
    """`mcp__todo/read_tree` -> ("mcp__todo", "read_tree")."""
    if "/" in name:
        ns, _, base = name.rpartition("/")
        return ns, base
    return None, name


def tool_schema(decl: dict) -> dict:
    for key in ("input_schema", "parameters", "parametersJsonSchema", "inputSchema"):
        if isinstance(decl.get(key), dict):
            return decl[key]
    return {}


# ---------------------------------------------------------------------------
# Tool results carried by a request, per API: (call id or None, name or None, content)


def results_in(api: str, body: dict) -> list[dict]:
    out: list[dict] = []
    if api == "anthropic":
        names = {}
        for message in body.get("messages") or []:
            content = message.get("content")
            if not isinstance(content, list):
                continue
            for block in content:
                if not isinstance(block, dict):
                    continue
                if block.get("type") == "tool_use":
                    names[block.get("id")] = block.get("name")
                elif block.get("type") == "tool_result":
                    out.append(
                        {
                            "id": block.get("tool_use_id"),
                            "name": names.get(block.get("tool_use_id")),
                            "content": block.get("content"),
                            "is_error": block.get("is_error"),
                        }
                    )
    elif api == "responses":
        names = {}
        items = body.get("input")
        for item in items if isinstance(items, list) else []:
            if not isinstance(item, dict):
                continue
            if item.get("type") in ("function_call", "custom_tool_call"):
                names[item.get("call_id")] = item.get("name")
            elif item.get("type") in ("function_call_output", "custom_tool_call_output"):
                out.append(
                    {
                        "id": item.get("call_id"),
                        "name": names.get(item.get("call_id")),
                        "content": item.get("output"),
                    }
                )
    elif api == "chat":
        names = {}
        for message in body.get("messages") or []:
            for call in message.get("tool_calls") or []:
                names[call.get("id")] = (call.get("function") or {}).get("name")
            if message.get("role") == "tool":
                out.append(
                    {
                        "id": message.get("tool_call_id"),
                        "name": names.get(message.get("tool_call_id")),
                        "content": message.get("content"),
                    }
                )
    elif api == "gemini":
        for content in body.get("contents") or []:
            for part in content.get("parts") or []:
                response = part.get("functionResponse")
                if isinstance(response, dict):
                    out.append(
                        {
                            "id": response.get("id"),
                            "name": response.get("name"),
                            "content": response.get("response"),
                            "parts": response.get("parts"),
                        }
                    )
    return out


# ---------------------------------------------------------------------------
# Arguments as a model would give them


def _filler(schema: dict):
    """What a strict-mode model writes for an argument it leaves out."""
    types = schema.get("type")
    if isinstance(types, list):
        if "null" in types:
            return None
        types = types[0] if types else None
    if "anyOf" in schema:
        if any(s.get("type") == "null" for s in schema["anyOf"] if isinstance(s, dict)):
            return None
        return _filler(schema["anyOf"][0])
    return {"string": "", "integer": 0, "number": 0, "boolean": False, "array": [], "object": {}}.get(
        types, None
    )


def _fill_strict(value, schema: dict):
    """A strict schema makes the model give every property: fill the ones left out."""
    if not isinstance(schema, dict):
        return value
    if isinstance(value, dict) and isinstance(schema.get("properties"), dict):
        filled = dict(value)
        for key, sub in schema["properties"].items():
            if key in filled:
                filled[key] = _fill_strict(filled[key], sub)
            else:
                filled[key] = _filler(sub)
        return filled
    if isinstance(value, list) and isinstance(schema.get("items"), dict):
        return [_fill_strict(v, schema["items"]) for v in value]
    return value


def arguments_for(step: int, decl: dict, bridge_schema: dict | None = None) -> dict:
    base, args = SCRIPT[step]
    args = json.loads(json.dumps(args))
    schema = tool_schema(decl)
    props = schema.get("properties") or {}
    if step == EXTRAS_STEP:
        # Properties the host added to the bridge's schema: give the boolean ones.
        known = set((bridge_schema or {}).get("properties") or {}) or {
            "node",
            "action",
            "value",
            "direction",
            "amount",
        }
        for key, sub in props.items():
            if key not in known and isinstance(sub, dict) and sub.get("type") == "boolean":
                args[key] = True
    if decl.get("strict") is True:
        args = _fill_strict(args, schema)
    return args


# ---------------------------------------------------------------------------


class StandIn:
    """The server. `start()` returns the port; `requests` holds what was recorded."""

    def __init__(self, log_path: Path | None = None, model: str = "standin-model") -> None:
        self.log_path = Path(log_path) if log_path else None
        self.model = model
        self.requests: list[dict] = []
        self.lock = threading.Lock()
        self.counter = itertools.count(1)
        # call id -> script step, for the calls this server handed out
        self.issued: dict[str, int] = {}
        # the ids of the ToolSearch calls it made
        self.searches: set[str] = set()
        self.server: ThreadingHTTPServer | None = None

    # -- recording
    def record(self, entry: dict) -> None:
        with self.lock:
            entry["n"] = len(self.requests) + 1
            entry["t"] = round(time.time(), 3)
            self.requests.append(entry)
            if self.log_path:
                with self.log_path.open("a") as f:
                    f.write(json.dumps(entry) + "\n")

    # -- the turn a request is at
    def next_step(self, api: str, body: dict, names: dict[str, str]) -> int:
        done: set[int] = set()
        by_name = {v: k for k, v in names.items()}
        gemini_calls = 0
        for result in results_in(api, body):
            if result["id"] in self.issued:
                done.add(self.issued[result["id"]])
            elif api == "gemini" and result["name"] in by_name:
                # ids may not come back: count the taria results in order
                done.add(gemini_calls)
                gemini_calls += 1
        return (max(done) + 1) if done else 0

    def new_id(self, prefix: str, step: int) -> str:
        call_id = f"{prefix}taria_{step}_{next(self.counter)}"
        if step == "search":
            self.searches.add(call_id)
        else:
            self.issued[call_id] = step
        return call_id

    def plan(self, api: str, body: dict) -> dict:
        """What to answer: {'kind': 'main'|'side', 'step', 'call': (name, args) | None,
        'text': ...}."""
        offered = offered_tools(body)
        names = taria_tool_names(offered)
        if "read_tree" not in names:
            search = self.tool_search(api, body, offered)
            if search:
                return search
            return {"kind": "side", "text": side_text(api, body), "call": None}
        step = self.next_step(api, body, names)
        if step >= len(SCRIPT):
            return {"kind": "main", "step": step, "call": None, "text": FINAL_TEXT}
        base = SCRIPT[step][0]
        name = names.get(base)
        if name is None:
            return {
                "kind": "main",
                "step": step,
                "call": None,
                "text": f"TARIA-E2E-FAILED: no {base} tool offered",
            }
        return {
            "kind": "main",
            "step": step,
            "call": (name, arguments_for(step, offered[name])),
            "text": None,
        }

    def tool_search(self, api: str, body: dict, offered: dict[str, dict]) -> dict | None:
        """Claude Code defers MCP tools behind its ToolSearch tool: the request names
        them in a system message and offers ToolSearch. A model then loads them with
        `select:`; so does the stand-in, once (the step `search`)."""
        search = next((n for n in offered if n == "ToolSearch"), None)
        if not search:
            return None
        text = json.dumps(body)
        deferred = sorted(
            set(re.findall(r"mcp__todo__(?:" + "|".join(TOOLS) + r")\b", text))
        )
        if not deferred:
            return None
        searched = any(
            r["id"] in self.searches for r in results_in(api, body) if r["id"] is not None
        )
        if searched:
            return {
                "kind": "main",
                "step": "search",
                "call": None,
                "text": "TARIA-E2E-FAILED: the tools were not offered after ToolSearch",
            }
        return {
            "kind": "main",
            "step": "search",
            "call": (search, {"query": "select:" + ",".join(deferred), "max_results": len(deferred)}),
            "text": None,
        }

    # -- serving
    def start(self, port: int = 0) -> int:
        standin = self

        class Handler(_Handler):
            owner = standin

        self.server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self.server.server_address[1]

    def stop(self) -> None:
        if self.server:
            self.server.shutdown()
            self.server.server_close()


def side_text(api: str, body: dict) -> str:
    """A plausible answer to a request that is not a turn of the script."""
    if api == "gemini":
        config = body.get("generationConfig") or {}
        schema = config.get("responseJsonSchema") or config.get("responseSchema")
        if schema:
            return json.dumps(_sample(schema))
    text = json.dumps(body)
    if "next_speaker" in text:
        return json.dumps({"reasoning": "done", "next_speaker": "user"})
    return "Todo session"


def _sample(schema: dict):
    """A small value of a JSON schema (Gemini's side requests ask for JSON)."""
    kind = str(schema.get("type", "object")).lower()
    if "enum" in schema and schema["enum"]:
        if "user" in schema["enum"]:
            return "user"
        return schema["enum"][0]
    if kind == "object":
        props = schema.get("properties") or {}
        return {k: _sample(v) for k, v in props.items()}
    if kind == "array":
        return []
    if kind in ("integer", "number"):
        # gemini-cli's router asks for a "complexity score from 1-100"
        return schema.get("minimum", 1)
    if kind == "boolean":
        return False
    return "ok"


class _Handler(BaseHTTPRequestHandler):
    owner: StandIn
    protocol_version = "HTTP/1.1"

    def log_message(self, *args) -> None:  # quiet
        pass

    # -- plumbing
    def _body(self) -> bytes:
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            data = b""
            while True:
                size = int(self.rfile.readline().strip().split(b";")[0], 16)
                if size == 0:
                    self.rfile.readline()
                    break
                data += self.rfile.read(size)
                self.rfile.readline()
        else:
            data = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        encoding = self.headers.get("Content-Encoding", "").lower()
        if encoding == "gzip":
            data = gzip.decompress(data)
        elif encoding == "deflate":
            data = zlib.decompress(data)
        return data

    def _json(self, status: int, value) -> None:
        data = json.dumps(value).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(data)
        self.close_connection = True

    def _sse(self, events: list[tuple[str | None, object]], crlf: bool = False) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.end_headers()
        nl = "\r\n" if crlf else "\n"
        for event, data in events:
            chunk = ""
            if event:
                chunk += f"event: {event}{nl}"
            chunk += f"data: {data if isinstance(data, str) else json.dumps(data)}{nl}{nl}"
            self.wfile.write(chunk.encode())
            self.wfile.flush()
        self.close_connection = True

    def do_GET(self) -> None:
        path = urlsplit(self.path).path
        self.owner.record({"method": "GET", "path": self.path, "api": "get", "kind": "side"})
        if path.endswith("/models"):
            model = self.owner.model
            self._json(
                200,
                {
                    "object": "list",
                    "data": [{"id": model, "object": "model", "created": 0, "owned_by": "taria"}],
                    "models": [
                        {
                            "name": f"models/{model}",
                            "slug": model,
                            "displayName": model,
                            "supportedGenerationMethods": ["generateContent"],
                        }
                    ],
                },
            )
        else:
            self._json(404, {"error": {"message": f"no {path} here", "type": "not_found"}})

    def do_HEAD(self) -> None:
        self.send_response(200)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def do_POST(self) -> None:
        raw = self._body()
        path = urlsplit(self.path).path
        try:
            body = json.loads(raw or b"{}")
        except ValueError:
            body = {"_unparsed": raw.decode("utf-8", "replace")}
        entry = {"method": "POST", "path": self.path, "headers": dict(self.headers), "body": body}
        api = None
        if path.endswith("/messages/count_tokens"):
            entry.update(api="anthropic", kind="side", note="count_tokens")
            self.owner.record(entry)
            return self._json(200, {"input_tokens": max(1, len(raw) // 4)})
        if path.endswith(":countTokens"):
            entry.update(api="gemini", kind="side", note="countTokens")
            self.owner.record(entry)
            return self._json(200, {"totalTokens": max(1, len(raw) // 4)})
        if path.endswith("/messages"):
            api = "anthropic"
        elif path.endswith("/responses"):
            api = "responses"
        elif path.endswith("/chat/completions"):
            api = "chat"
        elif ":generateContent" in path or ":streamGenerateContent" in path:
            api = "gemini"
        if api is None:
            entry.update(api="unknown", kind="side", note="404")
            self.owner.record(entry)
            return self._json(404, {"error": {"message": f"no {path} here", "type": "not_found"}})
        with self.owner.lock:
            plan = self.owner.plan(api, body)
        entry.update(api=api, kind=plan["kind"], step=plan.get("step"))
        if plan["call"]:
            entry["answer"] = {"call": plan["call"][0], "arguments": plan["call"][1]}
        else:
            entry["answer"] = {"text": plan["text"]}
        getattr(self, "_" + api)(body, plan, path, entry)
        self.owner.record(entry)

    # -- Anthropic Messages
    def _anthropic(self, body: dict, plan: dict, path: str, entry: dict) -> None:
        mid = f"msg_taria_{next(self.owner.counter)}"
        if plan["call"]:
            name, args = plan["call"]
            call_id = self.owner.new_id("toolu_", plan["step"])
            entry["answer"]["id"] = call_id
            block = {"type": "tool_use", "id": call_id, "name": name, "input": args}
            stop = "tool_use"
        else:
            block = {"type": "text", "text": plan["text"]}
            stop = "end_turn"
        usage = {"input_tokens": 100, "output_tokens": 20}
        message = {
            "id": mid,
            "type": "message",
            "role": "assistant",
            "model": body.get("model") or self.owner.model,
            "content": [block],
            "stop_reason": stop,
            "stop_sequence": None,
            "usage": usage,
        }
        if not body.get("stream"):
            return self._json(200, message)
        start = dict(message, content=[], stop_reason=None, usage={"input_tokens": 100, "output_tokens": 1})
        events: list = [("message_start", {"type": "message_start", "message": start})]
        if block["type"] == "tool_use":
            events.append(
                (
                    "content_block_start",
                    {
                        "type": "content_block_start",
                        "index": 0,
                        "content_block": dict(block, input={}),
                    },
                )
            )
            events.append(
                (
                    "content_block_delta",
                    {
                        "type": "content_block_delta",
                        "index": 0,
                        "delta": {"type": "input_json_delta", "partial_json": json.dumps(block["input"])},
                    },
                )
            )
        else:
            events.append(
                (
                    "content_block_start",
                    {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
                )
            )
            events.append(
                (
                    "content_block_delta",
                    {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": block["text"]}},
                )
            )
        events += [
            ("content_block_stop", {"type": "content_block_stop", "index": 0}),
            (
                "message_delta",
                {
                    "type": "message_delta",
                    "delta": {"stop_reason": stop, "stop_sequence": None},
                    "usage": {"output_tokens": 20},
                },
            ),
            ("message_stop", {"type": "message_stop"}),
        ]
        self._sse(events)

    # -- OpenAI Responses
    def _responses(self, body: dict, plan: dict, path: str, entry: dict) -> None:
        rid = f"resp_taria_{next(self.owner.counter)}"
        created = int(time.time())
        if plan["call"]:
            name, args = plan["call"]
            call_id = self.owner.new_id("call_", plan["step"])
            entry["answer"]["id"] = call_id
            namespace, name = split_namespace(name)
            item = {
                "type": "function_call",
                "id": f"fc_{call_id}",
                "call_id": call_id,
                "name": name,
                "arguments": json.dumps(args),
                "status": "completed",
            }
            if namespace:
                item["namespace"] = namespace
        else:
            item = {
                "type": "message",
                "id": f"msg_{rid}",
                "role": "assistant",
                "status": "completed",
                "content": [{"type": "output_text", "text": plan["text"], "annotations": []}],
            }
        usage = {
            "input_tokens": 100,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens": 20,
            "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": 120,
        }
        response = {
            "id": rid,
            "object": "response",
            "created_at": created,
            "status": "completed",
            "model": body.get("model") or self.owner.model,
            "output": [item],
            "parallel_tool_calls": True,
            "tool_choice": "auto",
            "tools": [],
            "usage": usage,
            "error": None,
            "incomplete_details": None,
            "instructions": None,
            "metadata": {},
            "temperature": 1.0,
            "top_p": 1.0,
            "text": {"format": {"type": "text"}},
            "truncation": "disabled",
        }
        if not body.get("stream"):
            return self._json(200, response)
        seq = itertools.count()
        in_progress = dict(response, status="in_progress", output=[], usage=None)
        events: list = [
            ("response.created", {"type": "response.created", "sequence_number": next(seq), "response": in_progress}),
            (
                "response.in_progress",
                {"type": "response.in_progress", "sequence_number": next(seq), "response": in_progress},
            ),
        ]
        if item["type"] == "function_call":
            events += [
                (
                    "response.output_item.added",
                    {
                        "type": "response.output_item.added",
                        "sequence_number": next(seq),
                        "output_index": 0,
                        "item": dict(item, arguments="", status="in_progress"),
                    },
                ),
                (
                    "response.function_call_arguments.delta",
                    {
                        "type": "response.function_call_arguments.delta",
                        "sequence_number": next(seq),
                        "item_id": item["id"],
                        "output_index": 0,
                        "delta": item["arguments"],
                    },
                ),
                (
                    "response.function_call_arguments.done",
                    {
                        "type": "response.function_call_arguments.done",
                        "sequence_number": next(seq),
                        "item_id": item["id"],
                        "output_index": 0,
                        "name": item["name"],
                        "arguments": item["arguments"],
                    },
                ),
            ]
        else:
            text = plan["text"]
            part = {"type": "output_text", "text": "", "annotations": []}
            events += [
                (
                    "response.output_item.added",
                    {
                        "type": "response.output_item.added",
                        "sequence_number": next(seq),
                        "output_index": 0,
                        "item": dict(item, content=[], status="in_progress"),
                    },
                ),
                (
                    "response.content_part.added",
                    {
                        "type": "response.content_part.added",
                        "sequence_number": next(seq),
                        "item_id": item["id"],
                        "output_index": 0,
                        "content_index": 0,
                        "part": part,
                    },
                ),
                (
                    "response.output_text.delta",
                    {
                        "type": "response.output_text.delta",
                        "sequence_number": next(seq),
                        "item_id": item["id"],
                        "output_index": 0,
                        "content_index": 0,
                        "delta": text,
                        "logprobs": [],
                    },
                ),
                (
                    "response.output_text.done",
                    {
                        "type": "response.output_text.done",
                        "sequence_number": next(seq),
                        "item_id": item["id"],
                        "output_index": 0,
                        "content_index": 0,
                        "text": text,
                        "logprobs": [],
                    },
                ),
                (
                    "response.content_part.done",
                    {
                        "type": "response.content_part.done",
                        "sequence_number": next(seq),
                        "item_id": item["id"],
                        "output_index": 0,
                        "content_index": 0,
                        "part": dict(part, text=text),
                    },
                ),
            ]
        events += [
            (
                "response.output_item.done",
                {"type": "response.output_item.done", "sequence_number": next(seq), "output_index": 0, "item": item},
            ),
            ("response.completed", {"type": "response.completed", "sequence_number": next(seq), "response": response}),
        ]
        self._sse(events)

    # -- OpenAI Chat Completions
    def _chat(self, body: dict, plan: dict, path: str, entry: dict) -> None:
        cid = f"chatcmpl-taria{next(self.owner.counter)}"
        created = int(time.time())
        model = body.get("model") or self.owner.model
        usage = {"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120}
        if plan["call"]:
            name, args = plan["call"]
            call_id = self.owner.new_id("call_", plan["step"])
            entry["answer"]["id"] = call_id
            call = {"id": call_id, "type": "function", "function": {"name": name, "arguments": json.dumps(args)}}
            message = {"role": "assistant", "content": None, "tool_calls": [call]}
            finish = "tool_calls"
        else:
            message = {"role": "assistant", "content": plan["text"]}
            finish = "stop"
        if not body.get("stream"):
            return self._json(
                200,
                {
                    "id": cid,
                    "object": "chat.completion",
                    "created": created,
                    "model": model,
                    "choices": [{"index": 0, "message": message, "finish_reason": finish, "logprobs": None}],
                    "usage": usage,
                },
            )

        def chunk(delta: dict, finish_reason=None, **extra) -> dict:
            return {
                "id": cid,
                "object": "chat.completion.chunk",
                "created": created,
                "model": model,
                "choices": [{"index": 0, "delta": delta, "finish_reason": finish_reason, "logprobs": None}],
                **extra,
            }

        events: list = [(None, chunk({"role": "assistant", "content": ""}))]
        if plan["call"]:
            call = message["tool_calls"][0]
            events.append(
                (
                    None,
                    chunk(
                        {
                            "tool_calls": [
                                {
                                    "index": 0,
                                    "id": call["id"],
                                    "type": "function",
                                    "function": {"name": call["function"]["name"], "arguments": ""},
                                }
                            ]
                        }
                    ),
                )
            )
            events.append(
                (None, chunk({"tool_calls": [{"index": 0, "function": {"arguments": call["function"]["arguments"]}}]}))
            )
        else:
            events.append((None, chunk({"content": plan["text"]})))
        events.append((None, chunk({}, finish)))
        if (body.get("stream_options") or {}).get("include_usage"):
            events.append(
                (
                    None,
                    {
                        "id": cid,
                        "object": "chat.completion.chunk",
                        "created": created,
                        "model": model,
                        "choices": [],
                        "usage": usage,
                    },
                )
            )
        events.append((None, "[DONE]"))
        self._sse(events)

    # -- Gemini
    def _gemini(self, body: dict, plan: dict, path: str, entry: dict) -> None:
        if plan["call"]:
            name, args = plan["call"]
            call_id = self.owner.new_id("", plan["step"])
            entry["answer"]["id"] = call_id
            part = {"functionCall": {"id": call_id, "name": name, "args": args}}
        else:
            part = {"text": plan["text"]}
        model = path.rsplit("/", 1)[-1].split(":")[0]
        response = {
            "candidates": [{"content": {"role": "model", "parts": [part]}, "finishReason": "STOP", "index": 0}],
            "usageMetadata": {"promptTokenCount": 100, "candidatesTokenCount": 20, "totalTokenCount": 120},
            "modelVersion": model,
            "responseId": f"taria{next(self.owner.counter)}",
        }
        if ":streamGenerateContent" in path:
            self._sse([(None, response)], crlf=True)
        else:
            self._json(200, response)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--log", type=Path, default=None)
    args = parser.parse_args()
    standin = StandIn(args.log)
    port = standin.start(args.port)
    print(f"stand-in model on http://127.0.0.1:{port}", flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        standin.stop()


if __name__ == "__main__":
    main()
