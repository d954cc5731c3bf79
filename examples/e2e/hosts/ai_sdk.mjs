// The Vercel AI SDK as an app would use it: its MCP client (@ai-sdk/mcp, stdio
// transport) starts the server README's mcp.json names, and generateText runs the tool
// loop with an OpenAI-compatible provider (Chat Completions) pointed at the stand-in.
//
//   node ai_sdk.mjs MCP_JSON BASE_URL PROMPT
//
// run.py copies this file into the npm install directory, so `ai` and `@ai-sdk/*`
// resolve from there.
import { readFileSync } from 'node:fs';
import { createMCPClient } from '@ai-sdk/mcp';
import { Experimental_StdioMCPTransport } from '@ai-sdk/mcp/mcp-stdio';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, stepCountIs } from 'ai';

const [config, baseURL, prompt] = process.argv.slice(2);
const server = JSON.parse(readFileSync(config, 'utf8')).mcpServers.todo;
const client = await createMCPClient({
  transport: new Experimental_StdioMCPTransport({ command: server.command, args: server.args }),
});
try {
  const tools = await client.tools();
  const provider = createOpenAICompatible({ name: 'standin', baseURL, apiKey: 'standin' });
  const result = await generateText({
    model: provider('standin-model'),
    tools,
    prompt,
    stopWhen: stepCountIs(12),
  });
  console.log(result.text);
} finally {
  await client.close();
}
