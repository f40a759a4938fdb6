// A worked adapter of the kit's line protocol in JavaScript (Node.js 20, the standard library only).
//
//   tarot-rules conformance --harness "node conformance/adapters/node/adapter.mjs http://localhost:8000"
//
// The runner starts it once and writes one request a line on its standard input,
//   {"seq": 1, "operation": "/v1/tricks/legal-cards", "request": {...}}
// and reads one reply a line on its standard output, with the same seq: {"seq": 1, "answer": {...}},
// {"seq": 1, "refused": {"status": 422, "errors": [{"pointer": "/hand/2"}]}}, {"seq": 1, "error": "..."}
// or {"seq": 1, "skipped": true, "message": "..."}. One request at a time; at the end of its input
// the adapter exits. Standard output carries the protocol only: anything else goes to standard error.
//
// This one answers by forwarding each request to a service speaking the v1 HTTP API, at the URL
// given as its argument or in TAROT_RULES_URL. For your engine, replace the body of respond():
// the rest is the protocol, and stays as it is.

import { createInterface } from "node:readline";

const BASE = (process.argv[2] ?? process.env.TAROT_RULES_URL ?? "").replace(/\/+$/, "");
// A service that refuses for load (503 or 429 with Retry-After) is asked again after the time it
// asks for, for at most this many seconds per request: under the runner's --timeout (30 s by
// default), which is how long it waits for each reply.
const OVERLOAD_WAIT = Number(process.env.TAROT_RULES_OVERLOAD_WAIT ?? 25);
const RETRY_AFTER_MAX = 30;

/** A request the engine refuses: its faults, each located by a JSON pointer into the request. */
export class Refusal extends Error {
  /**
   * @param {number | undefined} status an HTTP-like 4xx status, if the engine has one (422 if in doubt)
   * @param {{pointer: string, code?: string, message?: string}[]} errors the faults found
   */
  constructor(status, errors) {
    super(`refused: ${errors.map((e) => e.pointer).join(", ")}`);
    this.status = status;
    this.errors = errors;
  }
}

/** A case the engine does not implement (an operation, a rule variant): skipped, with this reason. */
export class Skip extends Error {}

/**
 * Your engine goes here: the answer to `request` (the operation's JSON body, as in openapi.yaml)
 * posed to `operation` (its path: "/v1/tricks/legal-cards", "/v1/tricks/winner", "/v1/deals/deal",
 * "/v1/deals/score", "/v1/deals/evaluate", "/v1/games/score" or "/v1/tournaments/standings"), as an object with the API's names (legal, reason,
 * winner, valid, violations, tricks, points...). Throw a Refusal for a request your engine refuses,
 * a Skip for one it does not implement; any other error fails the case with its message.
 */
async function respond(operation, request) {
  const response = await post(operation, request);
  const body = await response.json().catch(() => null);
  if (response.status === 200) {
    return body;
  }
  if (response.status >= 400 && response.status < 500 && Array.isArray(body?.errors)) {
    throw new Refusal(response.status, body.errors.map(({ pointer, code, message }) => ({ pointer, code, message })));
  }
  throw new Error(`HTTP ${response.status} ${response.statusText}${body?.detail ? `: ${body.detail}` : ""}`);
}

/** POST `request` to `operation`, waiting out the service's refusals for load as they ask. */
async function post(operation, request) {
  let waited = 0;
  for (;;) {
    const response = await fetch(BASE + operation, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, application/problem+json" },
      body: JSON.stringify(request),
    });
    const delay = retryAfter(response);
    if (delay === null || waited + delay > OVERLOAD_WAIT) {
      return response;
    }
    await response.arrayBuffer(); // the refusal read, so that its connection is reused
    // A little more than asked: clients refused together do not all come back together.
    const jittered = delay * (1 + Math.random() / 4);
    waited += jittered;
    await new Promise((resolve) => setTimeout(resolve, jittered * 1000));
  }
}

/** Seconds a refusal for load asks to wait (Retry-After: seconds or an HTTP date), or null. */
function retryAfter(response) {
  const value = response.headers.get("retry-after");
  if ((response.status !== 503 && response.status !== 429) || !value) {
    return null;
  }
  const seconds = /^\d+$/.test(value.trim()) ? Number(value) : (Date.parse(value) - Date.now()) / 1000;
  return Number.isNaN(seconds) ? null : Math.min(Math.max(seconds, 0), RETRY_AFTER_MAX);
}

/** The reply to one request, as the protocol says it. */
async function reply(seq, operation, request) {
  try {
    return { seq, answer: await respond(operation, request) };
  } catch (error) {
    if (error instanceof Refusal) {
      return { seq, refused: { ...(error.status === undefined ? {} : { status: error.status }), errors: error.errors } };
    }
    if (error instanceof Skip) {
      return { seq, skipped: true, message: error.message };
    }
    return { seq, error: String(error?.message ?? error) + (error?.cause ? ` (${error.cause.message ?? error.cause})` : "") };
  }
}

async function main() {
  if (!BASE) {
    console.error("usage: node adapter.mjs URL (or TAROT_RULES_URL=URL node adapter.mjs)");
    process.exit(2);
  }
  // One request at a time: the next line is read once this one is answered.
  for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
    if (line.trim() === "") {
      continue;
    }
    const { seq, operation, request } = JSON.parse(line);
    process.stdout.write(JSON.stringify(await reply(seq, operation, request)) + "\n");
  }
}

await main();
