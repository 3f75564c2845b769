/**
 * A typed chain of request steps. Each step either refuses the request with an answer or
 * hands the next step a state with what it established (a token, a body, …), so a later
 * step can only run on what an earlier one has checked — the compiler sees to that. The state
 * is one object per request, which each step extends (`extended`), not a copy per step.
 *
 * A step that has nothing to wait for answers at once (a value, not a promise), and the
 * chain stays synchronous until a step really waits (the body still arriving, the ledger
 * call): on the common path of an MCP call most steps wait for nothing, and every promise
 * and microtask turn is CPU on every request (docs/benchmarks.md "Gateway").
 */
import { McpAnswer } from './answer.ts';
import type { Maybe } from './maybe.ts';

/**
 * The state a step hands on: `state` itself with `more`'s members added (or replaced), typed as
 * both. One object goes down a request's steps, extended in place, rather than a copy made by
 * each step: copying a dozen members at each of some fifteen steps, with V8's slow path for
 * objects built by spreading, was about a twentieth of an MCP call's CPU (docs/benchmarks.md
 * "Gateway"). A step never reads a state after handing it on, and a serving path's claim
 * extends the state only when it takes the request, so no step sees members another path added.
 */
export function extended<S extends object, M extends object>(state: S, more: M): S & M {
  return Object.assign(state, more);
}

/** One step: `env` is what every step shares (deps, limits), `state` what the steps before it established. */
export type Step<Env, In, Out> = (env: Env, state: In) => Maybe<Out | McpAnswer>;

export class Pipeline<Env, In, Out> {
  private constructor(private readonly steps: ReadonlyArray<Step<Env, unknown, unknown>>) {}

  static start<Env, In, Out>(first: Step<Env, In, Out>): Pipeline<Env, In, Out> {
    return new Pipeline([first as Step<Env, unknown, unknown>]);
  }

  /** The pipeline with `step` run after the ones before it (not `then`: that would make a pipeline a thenable). */
  andThen<Next>(step: Step<Env, Out, Next>): Pipeline<Env, In, Next> {
    return new Pipeline([...this.steps, step as Step<Env, unknown, unknown>]);
  }

  /** The steps' names in order (their function names), for logs and tests. */
  get names(): string[] {
    return this.steps.map((s) => s.name);
  }

  /**
   * Runs the steps in order; the first refusal is the result, else the last step's state.
   * Synchronous while the steps are: a promise only from the first step that returns one
   * (a step that throws at once throws here; one that rejects, rejects the promise).
   */
  run(env: Env, input: In): Maybe<Out | McpAnswer> {
    return this.runFrom(0, env, input) as Maybe<Out | McpAnswer>;
  }

  private runFrom(from: number, env: Env, input: unknown): Maybe<unknown> {
    let state = input;
    for (let i = from; i < this.steps.length; i++) {
      const result = this.steps[i]!(env, state);
      if (result instanceof Promise) {
        const next = i + 1;
        return result.then((r) =>
          r instanceof McpAnswer || next === this.steps.length ? r : this.runFrom(next, env, r),
        );
      }
      if (result instanceof McpAnswer) return result;
      state = result;
    }
    return state;
  }
}
