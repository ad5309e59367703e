import { warn } from './say';

/** Undo steps, run last-in first-out once the stack stops; one failing step does not keep the others from running. */
export class Teardown {
  private steps: { label: string; run: () => Promise<unknown> }[] = [];

  defer(label: string, run: () => Promise<unknown>): void {
    this.steps.push({ label, run });
  }

  async run(): Promise<boolean> {
    let ok = true;
    for (const step of this.steps.reverse()) {
      try {
        await step.run();
      } catch (error) {
        ok = false;
        warn(`could not ${step.label}: ${(error as Error).message}`);
      }
    }
    this.steps = [];
    return ok;
  }
}
