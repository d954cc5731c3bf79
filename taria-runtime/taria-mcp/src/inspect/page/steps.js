// What the recording viewer says of each step beyond its line: the tool and status it
// is filtered by, how long the app took, the log lines written at it, and whether
// something went wrong there.

// The tool a step came from (`act`, `read_tree`, …), or its kind for a line no tool
// sent (`tree`, `app`, `log`, `resize`).
export function toolOf(step) {
  return step.tool ?? step.kind;
}

// How a step ended, for the status filter: an input's answer (`delivered`, `ignored`,
// `rejected`, `dropped`; `unanswered` when none came), `refused` for a call the bridge
// refused, a log line's level; null for the rest.
export function statusOf(step) {
  if (step.kind === "input") return step.status ?? "unanswered";
  if (step.kind === "refused") return "refused";
  if (step.kind === "log") return step.title.replace(/^log /, "");
  return null;
}

// How long the app took to answer, in words (`0.81 ms`), or null.
export function took(step) {
  const us = Number(step.answeredInUs);
  if (!Number.isFinite(us) || step.answeredInUs === undefined) return null;
  const ms = us / 1000;
  return `${ms < 10 ? ms.toFixed(2) : ms < 100 ? ms.toFixed(1) : ms.toFixed(0)} ms`;
}

const ERRORS = new Set(["rejected", "dropped", "unanswered", "refused", "error"]);
const WARNINGS = new Set(["ignored", "warn"]);

// For each step, the indices of the log lines written at it (a log line names the
// input the app had in hand), and whether something went wrong there: "error" (an
// input refused, rejected, dropped or unanswered, or an error logged at it), "warn"
// (ignored, or a warning logged), or null.
export function atEachStep(steps) {
  const inputAt = new Map();
  steps.forEach((step, i) => {
    if (step.kind === "input" && Number.isInteger(step.step)) inputAt.set(step.step, i);
  });
  const logs = steps.map(() => []);
  steps.forEach((step, i) => {
    if (step.kind === "log" && inputAt.has(step.step)) logs[inputAt.get(step.step)].push(i);
  });
  const problems = steps.map((step, i) => {
    const statuses = [statusOf(step), ...logs[i].map((k) => statusOf(steps[k]))];
    if (statuses.some((s) => ERRORS.has(s))) return "error";
    if (statuses.some((s) => WARNINGS.has(s))) return "warn";
    return null;
  });
  return { logs, problems };
}
