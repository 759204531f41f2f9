/**
 * One finding of `correx doctor`: what was checked, whether it is fine, what was seen, and for
 * a problem the one thing to do about it.
 */
export type DoctorCheck = {
  /** What was checked: `sandbox`, `store`, `configuration`, `model local: reachable`... */
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
  /** What to do; present on every problem. */
  readonly fix?: string;
};

export function passed(name: string, detail: string): DoctorCheck {
  return { name, ok: true, detail };
}

export function problem(name: string, detail: string, fix: string): DoctorCheck {
  return { name, ok: false, detail, fix };
}
