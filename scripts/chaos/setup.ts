import type { Step } from './disruptions';
import type { Check, Target, Traffic } from './traffic';

/** What a chaos run's traffic and verdict need from the system it runs against: on one machine, or the cluster. */
export interface ChaosSetup {
  /** Where the traffic goes, one picked per call. */
  targets: Target[];
  /** The instances: each disruption waits until they are all healthy again, and the verdict checks them. */
  instances: Target[];
  /** The database, for the verdict and an operator's commands. */
  databaseUrl: string;
  steps: Step[];
  /** Checks of its own after the traffic, beside those of every run. */
  checks(t: Traffic): Promise<Check[]>;
  stop(): Promise<void>;
}
