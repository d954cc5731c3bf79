"""The Python agent frameworks as an app would use them, each in its own venv (run.py
starts this file with that venv's python): the framework's MCP client starts the
server README's mcp.json names (command and args, taken from the file run.py writes),
and the framework's agent loop runs the prompt against the stand-in model.

    python frameworks.py NAME MCP_JSON BASE_URL PROMPT

NAME: openai-agents (Responses API, the SDK's default), langchain (ChatOpenAI, Chat
Completions, in langchain's create_agent), pydantic-ai (OpenAIChatModel; the servers
come from the mcp.json file itself, with pydantic-ai's load_mcp_toolsets), fast-agent
(its `generic` OpenAI-compatible provider; the server in its fastagent.config.yaml).
Prints the agent's final answer.
"""

import asyncio
import json
import sys
from pathlib import Path

INSTRUCTIONS = "You drive a todo app through its tools."


def server(config: str) -> dict:
    return json.loads(Path(config).read_text())["mcpServers"]["todo"]


async def openai_agents(config: str, base_url: str, prompt: str) -> str:
    # The client reads OPENAI_BASE_URL and OPENAI_API_KEY (run.py sets them).
    from agents import Agent, Runner, set_tracing_disabled
    from agents.mcp import MCPServerStdio

    set_tracing_disabled(True)  # else it uploads traces to OpenAI
    todo = server(config)
    async with MCPServerStdio(
        name="todo",
        params={"command": todo["command"], "args": todo["args"]},
        client_session_timeout_seconds=30,
    ) as mcp:
        agent = Agent(name="taria", instructions=INSTRUCTIONS, mcp_servers=[mcp], model="standin-model")
        result = await Runner.run(agent, prompt, max_turns=12)
        return str(result.final_output)


async def langchain(config: str, base_url: str, prompt: str) -> str:
    from langchain.agents import create_agent
    from langchain_mcp_adapters.client import MultiServerMCPClient
    from langchain_mcp_adapters.tools import load_mcp_tools
    from langchain_openai import ChatOpenAI

    todo = server(config)
    client = MultiServerMCPClient(
        {"todo": {"transport": "stdio", "command": todo["command"], "args": todo["args"]}}
    )
    # One session for the whole run (client.get_tools() alone opens a session per
    # call, which would restart the app at every call).
    async with client.session("todo") as session:
        tools = await load_mcp_tools(session)
        model = ChatOpenAI(model="standin-model", base_url=base_url, api_key="standin")
        agent = create_agent(model, tools, system_prompt=INSTRUCTIONS)
        out = await agent.ainvoke({"messages": [{"role": "user", "content": prompt}]}, {"recursion_limit": 30})
        return str(out["messages"][-1].content)


async def pydantic_ai(config: str, base_url: str, prompt: str) -> str:
    from pydantic_ai import Agent
    from pydantic_ai.mcp import load_mcp_toolsets
    from pydantic_ai.models.openai import OpenAIChatModel
    from pydantic_ai.providers.openai import OpenAIProvider

    servers = load_mcp_toolsets(config)
    model = OpenAIChatModel("standin-model", provider=OpenAIProvider(base_url=base_url, api_key="standin"))
    # A tool's isError result is a retry to pydantic-ai, and one tool may fail once
    # by default: the script's two refused acts in a row need two.
    agent = Agent(model, toolsets=servers, instructions=INSTRUCTIONS, retries=3)
    async with agent:
        result = await agent.run(prompt)
    return str(result.output)


async def fast_agent(config: str, base_url: str, prompt: str) -> str:
    # fastagent.config.yaml (written by run.py beside the mcp.json: the server's
    # command and args, the generic provider's base_url) is read from the cwd's
    # parents or given explicitly.
    from fast_agent import FastAgent

    fast = FastAgent(
        "taria",
        config_path=str(Path(config).with_name("fastagent.config.yaml")),
        parse_cli_args=False,
        quiet=True,
    )

    @fast.agent(name="taria", instruction=INSTRUCTIONS, servers=["todo"], model="generic.standin-model")
    async def _agent() -> None:
        pass

    async with fast.run() as app:
        return str(await app.taria.send(prompt))


RUNNERS = {
    "openai-agents": openai_agents,
    "langchain": langchain,
    "pydantic-ai": pydantic_ai,
    "fast-agent": fast_agent,
}

if __name__ == "__main__":
    name, config, base_url, prompt = sys.argv[1:5]
    print(asyncio.run(RUNNERS[name](config, base_url, prompt)), flush=True)
