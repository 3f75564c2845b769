/**
 * A typed chain of request steps. Each step either refuses the request with an answer or
 * hands the next step a state with what it established (a token, a body, …), so a later
 * step can only run on what an earlier one has checked — the compiler sees to that.
 */
import { McpAnswer } from './answer.ts';

/** One step: `env` is what every step shares (deps, limits), `state` what the steps before it established. */
export type Step<Env, In, Out> = (env: Env, state: In) => Promise<Out | McpAnswer> | Out | McpAnswer;

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
   * A step that answers at once is not awaited: an `await` costs a microtask turn per step
   * on every MCP request, and most steps are synchronous.
   */
  async run(env: Env, input: In): Promise<Out | McpAnswer> {
    let state: unknown = input;
    for (const step of this.steps) {
      const answered = step(env, state);
      const result = answered instanceof Promise ? await answered : answered;
      if (result instanceof McpAnswer) return result;
      state = result;
    }
    return state as Out;
  }
}
